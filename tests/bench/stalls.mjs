// What ran while the server's event loop was held: reads a V8 CPU profile (the inspector's
// Profiler.stop answer, as tests/bench/loop-delay.mjs writes it) and, for each stretch in which the
// preload's 1 ms timer fired more than `thresholdMs` late (`profile.stalls`, [from, to] in the
// profile's microseconds), names the functions whose samples fell in it.
import { basename } from 'node:path';

/** The stretches of `profile` longer than `thresholdMs`, longest first, each with its top functions. */
export function stalls(profile, thresholdMs = 20, top = 6) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const name = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return url ? `${functionName || '(anonymous)'} ${basename(url)}:${lineNumber + 1}` : functionName || '(anonymous)';
  };
  /** The frames from the root's child down to `id`. */
  const stackOf = (id) => {
    const frames = [];
    for (let at = id; at !== undefined && byId.get(at).callFrame.functionName !== '(root)'; at = parentOf.get(at)) frames.push(byId.get(at));
    return frames.reverse();
  };

  const windows = (profile.stalls ?? [])
    .filter(([from, to]) => (to - from) / 1000 > thresholdMs)
    .map(([from, to]) => ({ start: from, end: to, self: new Map(), within: new Map() }));
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i] ?? 0;
    const stall = windows.find((window) => time >= window.start && time <= window.end);
    if (!stall) return;
    const stack = stackOf(id);
    const self = stack.at(-1);
    if (self) stall.self.set(name(self), (stall.self.get(name(self)) ?? 0) + 1);
    // Inclusive counts of our own code's frames (not node's or V8's), to name the caller that owns the time.
    for (const frame of new Set(stack.filter((node) => /\/(dist|src)\//.test(node.callFrame.url)).map(name))) stall.within.set(frame, (stall.within.get(frame) ?? 0) + 1);
  });
  const ranked = (counts) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([frame, samples]) => `${frame} (${samples})`);
  return windows
    .map((stall) => ({ ms: Math.round((stall.end - stall.start) / 100) / 10, atMs: Math.round((stall.start - profile.startTime) / 1000), self: ranked(stall.self), within: ranked(stall.within) }))
    .sort((a, b) => b.ms - a.ms);
}
