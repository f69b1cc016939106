/**
 * The text of c2sp.org/tlog-proof@v1, the proof the service hands out with each receipt: written
 * and read here, checked in tlog-proof.ts (node:crypto) and on the receipt page
 * (webcrypto-tlog-proof.ts). Platform-free, so both read a proof by the same rules.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { HASH_SIZE, type Hash } from './hash.ts';
import type { Refusal } from './note-text.ts';

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
/** A tree of 2^53 records, the most a JavaScript number indexes, has paths of 53 hashes. */
export const MAX_PROOF_HASHES = 64;

export interface TlogProof {
  readonly index: number;
  readonly proof: readonly Hash[];
  /** The signed checkpoint, verbatim. */
  readonly checkpoint: string;
  /** Opaque and unauthenticated: nothing here trusts it. */
  readonly extra?: Uint8Array;
}

const refuse = (reason: string): Refusal => ({ ok: false, reason });

/** The proof text: header, optional `extra` line, `index`, one base64 hash a line, an empty line, the checkpoint. */
export function formatTlogProof({ index, proof, checkpoint, extra }: TlogProof): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`tlog: ${index} is not an entry index`);
  if (proof.some((hash) => hash.length !== HASH_SIZE)) throw new RangeError(`tlog: inclusion proof hashes are ${HASH_SIZE} bytes`);
  if (!checkpoint.endsWith('\n')) throw new RangeError('tlog: a signed checkpoint ends with a newline');
  const lines = [TLOG_PROOF_HEADER, ...(extra ? [`extra ${encodeBase64(extra)}`] : []), `index ${index}`, ...proof.map(encodeBase64), ''];
  return `${lines.join('\n')}\n${checkpoint}`;
}

/** The parts of a proof text, refusing any line out of the spec's shape. */
export function parseTlogProof(text: string): ({ ok: true } & TlogProof) | Refusal {
  let at = 0;
  const nextLine = (): string | null => {
    const end = text.indexOf('\n', at);
    if (end === -1) return null;
    const line = text.slice(at, end);
    at = end + 1;
    return line;
  };

  const header = nextLine();
  if (header !== TLOG_PROOF_HEADER) return refuse(`the first line is not '${TLOG_PROOF_HEADER}'`);

  let line = nextLine();
  let extra: Uint8Array | undefined;
  if (line?.startsWith('extra ')) {
    extra = decodeBase64(line.slice('extra '.length)) ?? undefined;
    if (!extra) return refuse('the extra line is not standard base64');
    line = nextLine();
  }

  if (line === null || !line.startsWith('index ')) return refuse(`the line after the header${extra ? ' and extra data' : ''} is not 'index <decimal>'`);
  const indexText = line.slice('index '.length);
  if (!/^(0|[1-9][0-9]*)$/.test(indexText)) return refuse(`index '${indexText}' is not a decimal number without leading zeros`);
  const index = Number(indexText);
  if (!Number.isSafeInteger(index)) return refuse(`index ${indexText} is beyond 2^53`);

  const proof: Hash[] = [];
  for (;;) {
    line = nextLine();
    if (line === null) return refuse('the proof has no empty line before its checkpoint');
    if (line === '') break;
    if (proof.length === MAX_PROOF_HASHES) return refuse(`the inclusion proof has more than ${MAX_PROOF_HASHES} hashes`);
    const hash = decodeBase64(line);
    if (!hash || hash.length !== HASH_SIZE) return refuse(`inclusion proof line ${proof.length + 1} is not the standard base64 of a ${HASH_SIZE}-byte hash`);
    proof.push(hash);
  }

  const checkpoint = text.slice(at);
  if (checkpoint.length === 0) return refuse('the proof has no checkpoint after its empty line');
  return { ok: true, index, proof, checkpoint, ...(extra ? { extra } : {}) };
}

