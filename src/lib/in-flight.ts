/**
 * One run of a piece of work per key while it runs: requests that ask for the same key meanwhile
 * wait for that run, and the next request after it settles (done or failed) starts a new one.
 */
export function sharedWhileRunning<T>(): (key: string, work: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, work) => {
    let run = running.get(key);
    if (!run) {
      run = work();
      running.set(key, run);
      void run.catch(() => undefined).finally(() => running.delete(key));
    }
    return run;
  };
}
