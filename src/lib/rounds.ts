/**
 * Work that runs on its own now and then (the checkpointer, the retention sweep): a round now and
 * one every interval, never two at once, on a timer that does not keep the process alive. `stop`
 * resolves once the round in progress has ended and starts none after it, so a shutdown can close
 * the store under nothing: a round running as the store closed would open it again.
 */
export function everyInterval(seconds: number, round: () => Promise<void>): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = round().finally(() => (running = undefined));
  };
  const timer = setInterval(tick, seconds * 1000);
  timer.unref();
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * A round a short while after a change, covering every change made before it starts (the embedded
 * store's WAL fold after commits). A change made while a round runs may be past what that round
 * sees, so it gets a round of its own after it. A failed round waits for the next change.
 */
export function afterChanges(milliseconds: number, round: () => Promise<void>): { changed: () => void; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let changedWhileRunning = false;
  let stopped = false;
  const changed = (): void => {
    if (stopped) return;
    if (running) changedWhileRunning = true;
    if (running || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = true;
      changedWhileRunning = false;
      round()
        .catch(() => {})
        .finally(() => {
          running = false;
          if (changedWhileRunning) changed();
        });
    }, milliseconds);
    timer.unref();
  };
  return {
    changed,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
