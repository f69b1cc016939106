/**
 * The log's side of c2sp.org/tlog-witness: each checkpoint it signs is sent to every configured
 * witness with a consistency proof from the size that witness last cosigned (learnt from its 409
 * when not known), and the cosignatures that verify are added to the checkpoint. Fewer than the
 * quorum and the checkpoint is not published: the caller tries again next round. Each call is
 * bounded (WITNESS_TIMEOUT_MS); a witness that does not answer counts as one that did not cosign.
 */
import type { WitnessConfig } from '../config/receipt-log.ts';
import { cosignatureBy, parseCosignerKey } from '../domain/tlog/cosignature.ts';
import type { Hash } from '../domain/tlog/hash.ts';
import type { NoteVerifier } from '../domain/tlog/note-text.ts';
import { formatAddCheckpoint } from '../domain/tlog/witness-protocol.ts';
import { undici } from '../lib/lazy-modules.ts';
import { logger } from './logger.ts';

/** How long one add-checkpoint may take, connection included. */
const WITNESS_TIMEOUT_MS = 5_000;
/** A witness's answer is a few signature lines. */
const MAX_ANSWER_BYTES = 16 * 1024;

/** A witness as the log asks it: its verifier key, parsed, and its submission URL. */
export interface Witness extends WitnessConfig {
  verifier: NoteVerifier;
}

/** The configured witnesses with their keys parsed; throws naming a key that is not a witness's (type 0x04, its own key ID). */
export function witnessesOf(configured: readonly WitnessConfig[]): Witness[] {
  return configured.map(({ verifierKey, url }) => {
    const parsed = parseCosignerKey(verifierKey);
    if (!parsed.ok) throw new Error(`receipt log configuration: LOG_WITNESSES names ${verifierKey.slice(0, 80)}, which is not a witness verifier key: ${parsed.reason}`);
    return { verifierKey, url, verifier: parsed.verifier };
  });
}

/** Fewer witnesses cosigned than the quorum: the checkpoint is kept but not published. */
export class WitnessQuorumError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WitnessQuorumError';
  }
}

export interface WitnessClient {
  readonly witnesses: readonly Witness[];
  readonly quorum: number;
  /** `note` (of a checkpoint of `size`) with the cosignatures of at least the quorum added; throws WitnessQuorumError. */
  cosign(note: string, size: number): Promise<string>;
}

/** Whether a witness answered, and what. */
type Answer = { status: number; body: string };

async function post(url: string, body: string): Promise<Answer> {
  const response = await undici().request(`${url.replace(/\/$/, '')}/add-checkpoint`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    headersTimeout: WITNESS_TIMEOUT_MS,
    bodyTimeout: WITNESS_TIMEOUT_MS,
    signal: AbortSignal.timeout(WITNESS_TIMEOUT_MS),
  });
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of response.body) {
    length += (chunk as Buffer).length;
    if (length > MAX_ANSWER_BYTES) throw new Error(`the answer passed ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return { status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') };
}

export function createWitnessClient(witnesses: readonly Witness[], quorum: number, consistencyProof: (oldSize: number, newSize: number) => Promise<Hash[]>, send: (url: string, body: string) => Promise<Answer> = post): WitnessClient {
  // The size each witness last cosigned, as far as this process knows; a 409 says the truth.
  const cosignedSize = new Map<string, number>();

  /** The witness's cosignature line on `note`, or why there is none. */
  async function cosignOne(witness: Witness, note: string, size: number): Promise<{ line: string } | { reason: string }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const old = cosignedSize.get(witness.verifierKey) ?? 0;
      if (old > size) return { reason: `it cosigned size ${old}, beyond this checkpoint's ${size}` };
      const proof = old === 0 || old === size ? [] : await consistencyProof(old, size);
      let answer: Answer;
      try {
        answer = await send(witness.url, formatAddCheckpoint({ oldSize: old, proof, checkpoint: note }));
      } catch (error) {
        return { reason: `${witness.url} did not answer: ${(error as Error).message}` };
      }
      if (answer.status === 409) {
        const known = /^(0|[1-9][0-9]*)\n$/.exec(answer.body);
        if (!known) return { reason: `${witness.url} answered 409 without a size` };
        const witnessed = Number(known[1]);
        // The same size again: the witness holds another root for it, a fork no retry mends.
        if (witnessed === old) return { reason: `${witness.url} refused size ${size} (409): it holds size ${witnessed} with another root` };
        cosignedSize.set(witness.verifierKey, witnessed);
        continue;
      }
      if (answer.status !== 200) return { reason: `${witness.url} answered ${answer.status}: ${answer.body.trim().slice(0, 200)}` };
      const lines = answer.body.split(/(?<=\n)/).filter((line) => line.startsWith('\u2014 '));
      const found = lines.find((line) => cosignatureBy(`${note}${line}`, witness.verifier).ok);
      if (!found) return { reason: `${witness.url} answered no cosignature that verifies with ${witness.verifierKey}` };
      cosignedSize.set(witness.verifierKey, size);
      return { line: found };
    }
    return { reason: `${witness.url} kept answering 409` };
  }

  return {
    witnesses,
    quorum,
    async cosign(note, size) {
      if (witnesses.length === 0) return note;
      const results = await Promise.all(witnesses.map((witness) => cosignOne(witness, note, size)));
      const lines = results.flatMap((result) => ('line' in result ? [result.line] : []));
      const failures = results.flatMap((result, i) => ('reason' in result ? [`${witnesses[i]!.verifierKey.split('+')[0]}: ${result.reason}`] : []));
      if (failures.length) logger.warn({ size, failures }, 'receipt log: witnesses did not cosign');
      if (lines.length < quorum) throw new WitnessQuorumError(`${lines.length} of ${witnesses.length} witnesses cosigned size ${size}, ${quorum} required: ${failures.join('; ')}`);
      return `${note}${lines.join('')}`;
    },
  };
}
