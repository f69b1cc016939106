// What ran while the server's event loop was held: reads a V8 CPU profile (the inspector's
// Profiler.stop answer, as tests/bench/loop-delay.mjs writes it) and, for each stretch in which the
// preload's 1 ms timer fired late (`profile.stalls`, [from, to] in the profile's microseconds), names
// the functions whose samples fell in it. A profile without them is cut into stretches with no
// "(idle)" sample, which under a load that never lets the loop go idle hold many short tasks.
import { basename } from 'node:path';

/** The stretches of `profile` busier than `thresholdMs`, longest first, each with its top functions. */
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

  const found = [];
  const windows = profile.stalls?.filter(([from, to]) => (to - from) / 1000 > thresholdMs).map(([from, to]) => ({ start: from, ms: (to - from) / 1000, self: new Map(), within: new Map() }));
  let time = profile.startTime;
  let current;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i] ?? 0;
    if (windows) {
      current = windows.find((stall) => time >= stall.start && time <= stall.start + stall.ms * 1000);
      if (!current) return;
    } else if (byId.get(id).callFrame.functionName === '(idle)') {
      if (current && (time - current.start) / 1000 > thresholdMs) found.push({ ...current, ms: (time - current.start) / 1000 });
      current = undefined;
      return;
    } else current ??= { start: time, self: new Map(), within: new Map() };
    const stack = stackOf(id);
    const self = stack.at(-1);
    if (self) current.self.set(name(self), (current.self.get(name(self)) ?? 0) + 1);
    // Inclusive counts of our own code's frames (not node's or V8's), to name the caller that owns the time.
    for (const frame of new Set(stack.filter((node) => /\/(dist|src)\//.test(node.callFrame.url)).map(name))) current.within.set(frame, (current.within.get(frame) ?? 0) + 1);
  });
  const ranked = (counts) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([frame, samples]) => `${frame} (${samples})`);
  return (windows ?? found)
    .sort((a, b) => b.ms - a.ms)
    .map((stall) => ({ ms: Math.round(stall.ms * 10) / 10, atMs: Math.round((stall.start - profile.startTime) / 1000), self: ranked(stall.self), within: ranked(stall.within) }));
}
