/**
 * What this build is: the package version and the git commit it was made from. The current-release
 * descriptor is a static file, so these are read once at build time. A deployment that builds from
 * a tarball without `.git` passes the commit as SITE_COMMIT; otherwise `git rev-parse HEAD` tells.
 * The commit is `unknown` only when git itself is not installed: a repository that git cannot read
 * is an error, because publishing `unknown` from a checkout would hide a broken build.
 */
import { execFileSync } from 'node:child_process';
import packageJson from '../../package.json' with { type: 'json' };

export interface BuildInfo {
  /** package.json `version`. */
  version: string;
  /** package.json `name`. */
  packageName: string;
  /** Full 40-hex commit id, or `unknown` when git is absent and SITE_COMMIT unset. */
  commit: string;
  commitSource: 'env:SITE_COMMIT' | 'git' | 'unavailable';
}

const FULL_COMMIT = /^[0-9a-f]{40}$/;

/** Resolves the commit from SITE_COMMIT or git; exported with its inputs for tests. */
export function resolveCommit(
  env: Record<string, string | undefined> = process.env,
  runGit: () => string = () => execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
): Pick<BuildInfo, 'commit' | 'commitSource'> {
  const fromEnv = env.SITE_COMMIT?.trim().toLowerCase();
  if (fromEnv) {
    if (!FULL_COMMIT.test(fromEnv)) {
      throw new Error(`build info: SITE_COMMIT must be a full 40-character git commit id, got "${env.SITE_COMMIT}"`);
    }
    return { commit: fromEnv, commitSource: 'env:SITE_COMMIT' };
  }
  let output: string;
  try {
    output = runGit();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { commit: 'unknown', commitSource: 'unavailable' };
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(
      `build info: "git rev-parse HEAD" failed in ${process.cwd()}${stderr ? ` (${stderr})` : ''}; build from a git checkout or set SITE_COMMIT to the commit id`,
      { cause: error },
    );
  }
  const commit = output.trim().toLowerCase();
  if (!FULL_COMMIT.test(commit)) throw new Error(`build info: "git rev-parse HEAD" printed "${commit}", not a commit id`);
  return { commit, commitSource: 'git' };
}

let cached: BuildInfo | undefined;

/** The build's identity, resolved on first use and then fixed for the process. */
export function buildInfo(): BuildInfo {
  cached ??= { version: packageJson.version, packageName: packageJson.name, ...resolveCommit() };
  return cached;
}
