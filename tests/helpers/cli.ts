/**
 * Runs the built `agent-economy` command as a reader would, in its own process: never with the
 * shell's ERGO_EXPLORER_URL (a test names the chain source it means), logs silenced.
 */
import { spawn } from 'node:child_process';
import { DIST_DIR, ROOT } from './built-server.ts';

export const CLI = `${DIST_DIR}/cli/agent-economy.mjs`;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], { input, env = {} }: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const { ERGO_EXPLORER_URL: _shellExplorer, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...inherited, LOG_LEVEL: 'silent', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}
