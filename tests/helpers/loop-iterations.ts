/**
 * Counts the event loop's iterations (an immediate that queues itself runs once each check phase)
 * until stopped: work that runs in one iteration sees one count, work that lets the loop turn sees
 * it move.
 */
export function loopIterations(): { now: () => number; stop: () => void } {
  let count = 0;
  let running = true;
  const tick = () => {
    count++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => count, stop: () => (running = false) };
}
