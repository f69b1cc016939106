/**
 * A witness (c2sp.org/tlog-witness) for the logs it is given: `POST /add-checkpoint` cosigns a
 * checkpoint (c2sp.org/tlog-cosignature, `cosignature/v1`) only when it extends the last one this
 * witness cosigned for that log, proven by the consistency proof sent with it. The last cosigned tree
 * of each log is kept in its state file, written durably before the cosignature leaves, and checked
 * and written in one synchronous step, so no two requests interleave between the check and the
 * write. A witness that lost its state must be retired, not restarted (docs/transparency-log.md).
 */
import http from 'node:http';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeBase64, encodeBase64 } from '../domain/tlog/base64.ts';
import { cosign, formatCosignerKey } from '../domain/tlog/cosignature.ts';
import { rawPublicKey } from '../domain/tlog/note.ts';
import { judgeAddCheckpoint, parseAddCheckpoint, type WitnessedTree } from '../domain/tlog/witness-protocol.ts';
import { writeFileDurably } from '../lib/durable-file.ts';

/** A request body larger than this is no add-checkpoint (63 hashes and a checkpoint with its signatures). */
const MAX_BODY_BYTES = 64 * 1024;
const STATE_VERSION = 1;

export interface WitnessOptions {
  key: KeyObject;
  /** The witness's name, its cosignatures' key name. */
  name: string;
  stateFile: string;
  /** The logs it witnesses: origin to the log's verifier key. */
  logs: ReadonlyMap<string, string>;
  /** Seconds since the epoch, for the cosignatures' timestamps. */
  now?: () => number;
}

interface StateFile {
  version: number;
  logs: Record<string, { size: number; root: string }>;
}

/** The trees kept in `file`, or none when it does not exist yet; throws when it is not this witness's state. */
export function readWitnessState(file: string): Map<string, WitnessedTree> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const state = JSON.parse(text) as StateFile;
  if (state.version !== STATE_VERSION || typeof state.logs !== 'object' || state.logs === null) throw new Error(`witness: ${file} is not a witness state file (version ${STATE_VERSION})`);
  const trees = new Map<string, WitnessedTree>();
  for (const [origin, tree] of Object.entries(state.logs)) {
    const root = decodeBase64(tree.root);
    if (!Number.isSafeInteger(tree.size) || tree.size < 0 || !root) throw new Error(`witness: ${file} holds a malformed tree for ${origin}`);
    trees.set(origin, { size: tree.size, root });
  }
  return trees;
}

function writeWitnessState(file: string, trees: ReadonlyMap<string, WitnessedTree>): void {
  const logs = Object.fromEntries([...trees].map(([origin, tree]) => [origin, { size: tree.size, root: encodeBase64(tree.root) }]));
  writeFileDurably(file, `${JSON.stringify({ version: STATE_VERSION, logs } satisfies StateFile, null, 2)}\n`);
}

export interface WitnessAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The witness's answer to one add-checkpoint body; keeps the new tree before it returns a cosignature. */
export function createWitness(options: WitnessOptions): { verifierKey: string; addCheckpoint: (body: string) => WitnessAnswer } {
  const trees = readWitnessState(options.stateFile);
  const verifierKey = formatCosignerKey(options.name, rawPublicKey(options.key));
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const text = (status: number, body: string, contentType = 'text/plain; charset=utf-8'): WitnessAnswer => ({ status, contentType, body: body.endsWith('\n') ? body : `${body}\n` });
  return {
    verifierKey,
    addCheckpoint(body) {
      const request = parseAddCheckpoint(body);
      if (!request.ok) return text(400, request.reason);
      const verdict = judgeAddCheckpoint(request, options.logs, (origin) => trees.get(origin));
      if (verdict.status === 409) return text(409, `${verdict.size}\n`, 'text/x.tlog.size');
      if (verdict.status !== 200) return text(verdict.status, verdict.reason);
      const next = new Map(trees).set(verdict.origin, verdict.tree);
      // Kept before the cosignature exists: a witness that answered and then lost the tree could cosign a fork.
      writeWitnessState(options.stateFile, next);
      trees.set(verdict.origin, verdict.tree);
      return text(200, cosign(verdict.text, options.key, options.name, now()), 'text/plain; charset=utf-8');
    },
  };
}

/** The witness on `host:port` (port 0: any free one); resolves once it listens. */
export async function serveWitness(options: WitnessOptions & { host: string; port: number }): Promise<{ server: http.Server; url: string; verifierKey: string }> {
  const witness = createWitness(options);
  const server = http.createServer((req, res) => {
    const answer = (reply: WitnessAnswer) => {
      res.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
      res.end(reply.body);
    };
    if (req.url !== '/add-checkpoint') return answer({ status: 404, contentType: 'text/plain; charset=utf-8', body: 'this witness answers POST /add-checkpoint only\n' });
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return answer({ status: 405, contentType: 'text/plain; charset=utf-8', body: 'add-checkpoint is a POST\n' });
    }
    const chunks: Buffer[] = [];
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > MAX_BODY_BYTES) {
        answer({ status: 413, contentType: 'text/plain; charset=utf-8', body: `an add-checkpoint body is at most ${MAX_BODY_BYTES} bytes\n` });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      let body: string;
      try {
        body = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
      } catch {
        return answer({ status: 400, contentType: 'text/plain; charset=utf-8', body: 'the body is not UTF-8\n' });
      }
      try {
        answer(witness.addCheckpoint(body));
      } catch (error) {
        // The state could not be kept: no cosignature without it.
        answer({ status: 500, contentType: 'text/plain; charset=utf-8', body: `the witness could not keep its state: ${(error as Error).message}\n` });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`, verifierKey: witness.verifierKey };
}
