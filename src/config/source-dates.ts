/**
 * When a published document last changed, read from the history of its own sources rather than
 * written by hand: a hand-set date goes stale the first time someone edits the content and forgets
 * it (eight descriptors once said 2026-11-23 after their content had moved on).
 *
 * The day (UTC) of the newest commit that touched one of the sources; today when one of them has
 * uncommitted changes (the build publishes them); the newest modification time of the files when
 * there is no git history to read (a tarball build, or a copy git does not track). Paths are relative to the project root, the
 * working directory of every build and test, as for the commit in build-info.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface SourceHistory {
  /** Output of `git <args>` run in the project root; throws as execFileSync does. */
  git(args: readonly string[]): string;
  /** Modification time of a path, in milliseconds. */
  modifiedMs(path: string): number;
  exists(path: string): boolean;
  now(): Date;
}

export const projectHistory = (root: string = process.cwd()): SourceHistory => ({
  git: (args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  modifiedMs: (path) => statSync(join(root, path)).mtimeMs,
  exists: (path) => existsSync(join(root, path)),
  now: () => new Date(),
});

const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The day `sources` last changed; throws naming a source that does not exist (a misspelt path would date nothing). */
export function lastChanged(sources: readonly string[], history: SourceHistory = projectHistory()): string {
  if (sources.length === 0) throw new Error('source dates: a document needs at least one source to be dated');
  const missing = sources.filter((path) => !history.exists(path));
  if (missing.length > 0) throw new Error(`source dates: ${missing.join(', ')} does not exist in the project`);
  const modified = () => utcDay(new Date(Math.max(...sources.map((path) => history.modifiedMs(path)))));
  let committed: string;
  try {
    if (history.git(['status', '--porcelain', '--', ...sources]).trim() !== '') return utcDay(history.now());
    committed = history.git(['log', '-1', '--format=%ct', '--', ...sources]).trim();
  } catch {
    // No git, or not a repository: the files are all the history there is.
    return modified();
  }
  // Files git keeps no history of (a copy in another repository's ignored folder, as Stryker's
  // sandbox is): the files are all the history there is, as without git.
  return /^\d+$/.test(committed) ? utcDay(new Date(Number(committed) * 1000)) : modified();
}

const cache = new Map<string, string>();

/** lastChanged of the project's own sources, read once per set for the process. */
export function projectLastChanged(sources: readonly string[]): string {
  const key = sources.join('\n');
  let day = cache.get(key);
  if (day === undefined) {
    day = lastChanged(sources);
    cache.set(key, day);
  }
  return day;
}
