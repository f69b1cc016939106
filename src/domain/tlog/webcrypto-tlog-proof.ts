/**
 * A receipt's c2sp.org/tlog-proof checked with WebCrypto, so the receipt page checks in the browser
 * what `agent-economy verify-receipt` checks with node:crypto: the verifier key's ID, the
 * checkpoint's Ed25519 signature and origin (the key's name), and the inclusion of the entry's
 * bytes at the proof's index, folded to the checkpoint's root. The rules and the reasons are the
 * platform-free modules' the server uses (tlog-proof-text.ts, note-text.ts, inclusion-path.ts);
 * only the SHA-256 and Ed25519 calls are WebCrypto's, which are asynchronous. A browser without
 * Ed25519 in WebCrypto still gets the other checks, and the verdict says the signature was not
 * checked rather than passing it.
 */
import { leafHashInput, nodeHashInput, type Hash } from './hash.ts';
import { inclusionPath, inclusionRootVerdict } from './inclusion-path.ts';
import {
  badSignature,
  checkKeyId,
  COSIGNATURE_V1_TYPE,
  cosignatureParts,
  cosignedMessage,
  ED25519_SIGNATURE_SIZE,
  keyIdInput,
  keyLabel,
  noteSignaturesBy,
  originRefusal,
  parseCheckpoint,
  parseVerifierKeyText,
} from './note-text.ts';
import { parseTlogProof } from './tlog-proof-text.ts';

/** The checks, in the order they run; a refusal names the one that failed. */
export const LOG_PROOF_STEPS = ['verifier_key', 'proof_text', 'checkpoint_signature', 'checkpoint', 'inclusion', 'witnesses'] as const;
export type LogProofStep = (typeof LOG_PROOF_STEPS)[number];

export type WebCryptoProofVerdict =
  | {
      ok: true;
      index: number;
      size: number;
      root: Hash;
      origin: string;
      /** Why the checkpoint's signature was not checked (this WebCrypto has no Ed25519); absent when it verified. */
      signatureUnchecked?: string;
      /** The witnesses asked for whose cosignatures verified (`<name>+<key id>`), when witnesses were asked for. */
      cosigners?: string[];
    }
  | { ok: false; step: LogProofStep; reason: string; index?: number; size?: number };

const sha256 = async (subtle: SubtleCrypto, bytes: Uint8Array): Promise<Hash> => new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));

/** Whether `signature` is an Ed25519 signature of `message` by `publicKey`; undefined when this WebCrypto has no Ed25519. */
async function ed25519Verifies(subtle: SubtleCrypto, publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean | undefined> {
  let key: CryptoKey;
  try {
    key = await subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, ['verify']);
  } catch (error) {
    if ((error as Error)?.name === 'NotSupportedError') return undefined;
    return false;
  }
  if (signature.length !== ED25519_SIGNATURE_SIZE) return false;
  return subtle.verify({ name: 'Ed25519' }, key, signature as Uint8Array<ArrayBuffer>, message as Uint8Array<ArrayBuffer>);
}

/**
 * Whether `proofText` proves that the log whose checkpoints `verifierKey` signs holds `entry` at the
 * index it states. The log's origin is the key's name (c2sp.org/tlog-checkpoint), as
 * verify-receipt takes it. Never throws on what a site served; a WebCrypto failure is a refusal too.
 */
export async function verifyTlogProofWithWebCrypto(entry: Uint8Array, proofText: string, verifierKey: string, subtle: SubtleCrypto, witnesses?: { keys: readonly string[]; quorum: number }): Promise<WebCryptoProofVerdict> {
  const key = parseVerifierKeyText(verifierKey.trim());
  if (!key.ok) return { ok: false, step: 'verifier_key', reason: key.reason };
  const checked = checkKeyId(key, await sha256(subtle, keyIdInput(key.name, key.publicKey)));
  if (!checked.ok) return { ok: false, step: 'verifier_key', reason: checked.reason };
  const { verifier } = checked;

  const proof = parseTlogProof(proofText);
  if (!proof.ok) return { ok: false, step: 'proof_text', reason: proof.reason };
  const { index } = proof;

  const signed = noteSignaturesBy(proof.checkpoint, verifier);
  if (!signed.ok) return { ok: false, step: 'checkpoint_signature', reason: signed.reason, index };
  let signatureUnchecked: string | undefined;
  const message = new TextEncoder().encode(signed.text);
  for (const { line, signature } of signed.signatures) {
    const verified = await ed25519Verifies(subtle, verifier.publicKey, signature, message);
    if (verified === undefined) {
      signatureUnchecked = 'this browser\'s WebCrypto has no Ed25519, so the checkpoint\'s signature was not checked';
      break;
    }
    if (!verified) return { ok: false, step: 'checkpoint_signature', reason: badSignature(verifier, line).reason, index };
  }

  const parsed = parseCheckpoint(signed.text);
  if (!parsed.ok) return { ok: false, step: 'checkpoint', reason: parsed.reason, index };
  const { origin, size, root } = parsed.checkpoint;
  const otherOrigin = originRefusal(origin, verifier.name);
  if (otherOrigin) return { ok: false, step: 'checkpoint', reason: otherOrigin, index, size };

  const leaf = await sha256(subtle, leafHashInput(entry));
  const path = inclusionPath(leaf, index, size, proof.proof, root);
  if (!path.ok) return { ok: false, step: 'inclusion', reason: path.reason, index, size };
  let folded = leaf;
  for (const [i, side] of path.sides.entries()) folded = await sha256(subtle, side === 'left' ? nodeHashInput(proof.proof[i]!, folded) : nodeHashInput(folded, proof.proof[i]!));
  const included = inclusionRootVerdict(folded, index, size, root);
  if (!included.ok) return { ok: false, step: 'inclusion', reason: included.reason, index, size };
  if (!witnesses) return { ok: true, index, size, root, origin, ...(signatureUnchecked ? { signatureUnchecked } : {}) };
  const cosigned = await cosignersOf(proof.checkpoint, witnesses, subtle);
  if (!cosigned.ok) return { ok: false, step: 'witnesses', reason: cosigned.reason, index, size };
  return { ok: true, index, size, root, origin, cosigners: cosigned.cosigners, ...(signatureUnchecked ? { signatureUnchecked } : {}) };
}

/**
 * Which of the witnesses (their verifier keys, type 0x04) cosigned `note` (c2sp.org/tlog-cosignature,
 * cosignature/v1), refused when fewer than `quorum` did or a key is not a witness's. A browser
 * without Ed25519 cannot count a cosignature, so it refuses rather than pass the quorum unchecked.
 */
export async function cosignersOf(note: string, { keys, quorum }: { keys: readonly string[]; quorum: number }, subtle: SubtleCrypto): Promise<{ ok: true; cosigners: string[] } | { ok: false; reason: string }> {
  const cosigners: string[] = [];
  const missing: string[] = [];
  for (const key of keys) {
    const parsed = parseVerifierKeyText(key.trim(), COSIGNATURE_V1_TYPE);
    if (!parsed.ok) return { ok: false, reason: `the witness key ${key.slice(0, 60)} is not a witness's: ${parsed.reason}` };
    const checked = checkKeyId(parsed, await sha256(subtle, keyIdInput(parsed.name, parsed.publicKey, COSIGNATURE_V1_TYPE)));
    if (!checked.ok) return { ok: false, reason: `the witness key ${key.slice(0, 60)} is not a witness's: ${checked.reason}` };
    const label = keyLabel(checked.verifier.name, checked.verifier.keyId);
    const signed = noteSignaturesBy(note, checked.verifier);
    if (!signed.ok) {
      missing.push(signed.reason);
      continue;
    }
    let verified: boolean | undefined = false;
    for (const { line, signature } of signed.signatures) {
      const parts = cosignatureParts(signature, label, line);
      if (!parts.ok) continue;
      verified = await ed25519Verifies(subtle, checked.verifier.publicKey, parts.signature, new TextEncoder().encode(cosignedMessage(signed.text, parts.timestamp)));
      if (verified !== false) break;
    }
    if (verified === undefined) return { ok: false, reason: 'this browser\'s WebCrypto has no Ed25519, so no cosignature could be counted' };
    if (verified) cosigners.push(label);
    else missing.push(`the cosignature by ${label} does not verify over the checkpoint`);
  }
  if (cosigners.length >= quorum) return { ok: true, cosigners };
  return { ok: false, reason: `the checkpoint has ${cosigners.length} valid witness cosignature${cosigners.length === 1 ? '' : 's'}, ${quorum} required${missing.length ? `: ${missing.join('; ')}` : ''}` };
}
