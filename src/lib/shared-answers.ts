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
