/**
 * Answers computed once and shared by the requests that ask for the same key within a few seconds:
 * requests that come together wait for one computation, and a failed one is not kept. At most
 * `maxKeys` answers are kept, the oldest dropped first.
 */
export function sharedAnswers<T>(seconds: number, maxKeys: number): (key: string, compute: () => Promise<T>) => Promise<T> {
  const kept = new Map<string, { at: number; value: Promise<T> }>();
  return (key, compute) => {
    const now = Date.now();
    const hit = kept.get(key);
    if (hit && now - hit.at < seconds * 1000) return hit.value;
    const value = compute();
    kept.delete(key);
    kept.set(key, { at: now, value });
    value.catch(() => {
      if (kept.get(key)?.value === value) kept.delete(key);
    });
    for (const [oldest] of kept) {
      if (kept.size <= maxKeys) break;
      kept.delete(oldest);
    }
    return value;
  };
}

/**
 * One answer made every `seconds` and shared by every request in between (live status, the proofs).
 * While the next is being made, the one before is answered when it is of the interval before, dated
 * by its own time; after an idle spell a request waits for a fresh one. A making that fails is
 * answered, not hidden behind the one before, and made again by the next request. `make` is handed
 * the time its making started, with the arguments of the request that started it.
 */
export function answerEvery<T, A extends unknown[]>(seconds: number, make: (now: number, ...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let current: { at: number; value: Promise<T> } | undefined;
  /** The newest answer made, and when its making started. */
  let made: { at: number; value: T } | undefined;
  return (...args) => {
    const now = Date.now();
    if (!current || now - current.at >= seconds * 1000) {
      const value = make(now, ...args);
      current = { at: now, value };
      value.then(
        (answer) => {
          if (!made || made.at < now) made = { at: now, value: answer };
        },
        () => {
          if (current?.value === value) current = undefined;
          made = undefined;
        },
      );
    }
    const recent = made && made.at !== current.at && now - made.at < 2 * seconds * 1000;
    return recent ? Promise.resolve(made!.value) : current.value;
  };
}
