/**
 * The previous release, built from git so a test can run it beside this build. Its commit is the one
 * line of `.ci/previous-release` that is not a comment. The commit is exported with `git archive`
 * into a temporary directory (no worktree, ref or other repository state is touched), given this
 * checkout's node_modules as hard links when its package-lock.json is byte for byte this one's (its
 * own `npm ci` otherwise), and built with `npx astro build`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, type Checkout } from './built-server.ts';

const run = promisify(execFile);

export const PREVIOUS_RELEASE_FILE = join(ROOT, '.ci', 'previous-release');

export interface BuiltRelease extends Checkout {
  commit: string;
  /** Its production entry, `dist/server/fast-entry.mjs` (what `npm run serve` runs). */
  entry: string;
  remove: () => void;
}

/** The full commit id `.ci/previous-release` names, checked to be in this clone's history. */
export async function previousReleaseCommit(): Promise<string> {
  const named = readFileSync(PREVIOUS_RELEASE_FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (named.length !== 1) throw new Error(`${PREVIOUS_RELEASE_FILE} must hold exactly one commit id besides its comments, found ${named.length} lines`);
  try {
    const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', `${named[0]}^{commit}`], { cwd: ROOT });
    return stdout.trim();
  } catch {
    throw new Error(`commit ${named[0]} (${PREVIOUS_RELEASE_FILE}) is not in this clone: the rolling-deploy test needs the history (git fetch --unshallow)`);
  }
}

/** A revision of this clone's history (the bench builds any commit beside this build). */
async function commitOf(revision: string): Promise<string> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd: ROOT });
    return stdout.trim();
  } catch {
    throw new Error(`${revision} is not a commit of this clone`);
  }
}

/** Hard links where the file system allows them (the same device), else a copy. */
async function shareNodeModules(into: string): Promise<void> {
  const target = join(into, 'node_modules');
  mkdirSync(target);
  // Caches (.vite, .astro, .cache...) stay behind: a build rewriting one in place would write
  // through a hard link into this checkout's copy.
  const sources = readdirSync(join(ROOT, 'node_modules'))
    .filter((name) => !name.startsWith('.') || name === '.bin' || name === '.package-lock.json')
    .map((name) => join(ROOT, 'node_modules', name));
  try {
    await run('cp', ['-al', ...sources, target]);
  } catch {
    await run('cp', ['-a', ...sources, target], { maxBuffer: 16 * 1024 * 1024 });
  }
}

/** Exports, installs and builds the previous release (or `revision`); `remove()` deletes it again. */
export async function buildPreviousRelease(revision?: string): Promise<BuiltRelease> {
  const commit = revision === undefined ? await previousReleaseCommit() : await commitOf(revision);
  const root = mkdtempSync(join(tmpdir(), `previous-release-${commit.slice(0, 7)}-`));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    await run('bash', ['-c', 'set -o pipefail; git archive --format=tar "$1" | tar -x -C "$2"', 'export', commit, root], { cwd: ROOT });
    const { stdout: lock } = await run('git', ['show', `${commit}:package-lock.json`], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    if (lock === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) await shareNodeModules(root);
    else await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    // Built as `npm run build` would be, not as a part of this test run (Vitest sets NODE_ENV=test).
    // The export is not a git checkout, so the build is told its commit rather than asking git.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(NODE_ENV|TEST|VITEST.*)$/.test(name)));
    await run('npx', ['astro', 'build'], { cwd: root, env: { ...env, ASTRO_TELEMETRY_DISABLED: '1', SITE_COMMIT: commit }, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    remove();
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(`building the previous release ${commit} failed: ${(error as Error).message}\n${output.stderr ?? ''}${(output.stdout ?? '').slice(-4_000)}`, { cause: error });
  }
  const distDir = join(root, 'dist');
  return { commit, root, distDir, entry: join(distDir, 'server', 'fast-entry.mjs'), remove };
}
