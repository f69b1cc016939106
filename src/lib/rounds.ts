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
