/**
 * `agent-economy witness key` and `agent-economy witness serve`: a c2sp.org/tlog-witness for receipt
 * logs (this site's or any other signed-note log), run by someone other than the log's operator. The
 * witness signs cosignatures with its own Ed25519 key, never a transaction, and holds no funds.
 */
import { readFileSync } from 'node:fs';
import { formatCosignerKey } from '../domain/tlog/cosignature.ts';
import { isValidKeyName } from '../domain/tlog/note-text.ts';
import { parseVerifierKey, rawPublicKey } from '../domain/tlog/note.ts';
import { readEd25519KeyFile } from '../services/log-signing-key.ts';
import { serveWitness } from '../services/witness-server.ts';
import { CliError, type Output } from './output.ts';

function witnessName(name: unknown): string {
  if (typeof name !== 'string' || !isValidKeyName(name)) throw new CliError('--name NAME is required: the witness\'s key name, a schema-less URL such as witness.example/w1 (no spaces, no "+")');
  return name;
}

function witnessKeyFile(file: unknown, output: Output, create: boolean) {
  if (typeof file !== 'string') throw new CliError('--key FILE is required: the witness\'s Ed25519 private key (PKCS#8 PEM, mode 0600)');
  try {
    // Said on stderr: stdout holds the verifier key alone, for a script to read.
    return readEd25519KeyFile(file, { owner: 'witness', signs: 'cosignatures in the witness\'s name', create, made: () => output.err(`made the witness key ${file} (mode 0600)`) });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/** Prints the witness's verifier key (type 0x04), making its key in FILE first when there is none. */
export function witnessKey(values: Record<string, unknown>, output: Output): number {
  const name = witnessName(values.name);
  output.out(formatCosignerKey(name, rawPublicKey(witnessKeyFile(values.key, output, true))));
  return 0;
}

/** The logs to witness, origin to verifier key, from each `--log` (the key, or a file holding it). */
function logsOf(values: unknown): Map<string, string> {
  const given = Array.isArray(values) ? (values as string[]) : typeof values === 'string' ? [values] : [];
  if (given.length === 0) throw new CliError('--log VKEY is required (repeatable): the verifier key of each log to witness, or a file holding it');
  const logs = new Map<string, string>();
  for (const value of given) {
    let key = value.trim();
    if (!key.includes('+')) {
      try {
        key = readFileSync(value, 'utf8').trim();
      } catch {
        throw new CliError(`--log must be a verifier key <origin>+<key id>+<base64 key> or a file holding one; "${value}" is neither`);
      }
    }
    const parsed = parseVerifierKey(key);
    if (!parsed.ok) throw new CliError(`--log ${key.slice(0, 80)} is not a log's verifier key: ${parsed.reason}`);
    if (logs.has(parsed.verifier.name)) throw new CliError(`--log names the log ${parsed.verifier.name} twice: a witness trusts one key per log`);
    logs.set(parsed.verifier.name, key);
  }
  return logs;
}

/** Runs the witness until SIGTERM or SIGINT; prints one JSON line when it listens. */
export async function witnessServe(values: Record<string, unknown>, output: Output): Promise<number> {
  const name = witnessName(values.name);
  const key = witnessKeyFile(values.key, output, false);
  if (typeof values.state !== 'string') throw new CliError('--state FILE is required: where the last checkpoint cosigned for each log is kept; it must never be lost or rolled back');
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError(`--port must be a port number, got "${String(values.port)}"`);
  const host = typeof values.host === 'string' ? values.host : '127.0.0.1';
  let running;
  try {
    running = await serveWitness({ key, name, stateFile: values.state, logs: logsOf(values.log), host, port });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`witness: ${(error as Error).message}`);
  }
  output.out(JSON.stringify({ level: 'info', msg: 'witness listening', url: running.url, verifier_key: running.verifierKey }));
  await new Promise<void>((resolve) => {
    const stop = () => running.server.close(() => resolve());
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return 0;
}
