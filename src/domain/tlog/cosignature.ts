/**
 * Witness cosignatures (c2sp.org/tlog-cosignature, `cosignature/v1`, Ed25519): a witness signs a
 * checkpoint only after checking it extends the last one it saw of that log, so a quorum of them on
 * a checkpoint means its log showed no one a fork. A cosignature is a note signature line whose key
 * ID hashes type 0x04, and whose bytes are the key ID, a big-endian u64 timestamp and the Ed25519
 * signature of `cosignature/v1\ntime <t>\n` followed by the checkpoint's text.
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { encodeBase64 } from './base64.ts';
import {
  checkKeyId,
  COSIGNATURE_V1_TYPE,
  cosignatureParts,
  cosignedMessage,
  ED25519_PUBLIC_KEY_SIZE,
  isValidKeyName,
  keyIdInput,
  keyLabel,
  noteSignaturesBy,
  parseVerifierKeyText,
  SIGNATURE_PREFIX,
  verifierKeyText,
  type NoteVerifier,
  type Refusal,
} from './note-text.ts';

export { cosignedMessage };
import { rawPublicKey } from './note.ts';

const refuse = (reason: string): Refusal => ({ ok: false, reason });


/** The key ID of a cosigner: SHA-256(name || 0x0A || 0x04 || public key)[:4]. */
export function cosignerKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(keyIdInput(name, publicKey, COSIGNATURE_V1_TYPE)).digest().subarray(0, 4));
}

/** A cosigner's verifier key, `<name>+<key ID>+<base64(0x04 || public key)>`, as a log and its readers are given it. */
export function formatCosignerKey(name: string, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new RangeError(`tlog: '${name}' is not a key name (non-empty, no spaces, no '+')`);
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) throw new RangeError(`tlog: an Ed25519 public key is ${ED25519_PUBLIC_KEY_SIZE} bytes, not ${publicKey.length}`);
  return verifierKeyText(name, cosignerKeyId(name, publicKey), publicKey, COSIGNATURE_V1_TYPE);
}

/** The cosigner a verifier key of type 0x04 names, refusing any other type or a key ID that is not its key's. */
export function parseCosignerKey(text: string): { ok: true; verifier: NoteVerifier } | Refusal {
  const parsed = parseVerifierKeyText(text.trim(), COSIGNATURE_V1_TYPE);
  if (!parsed.ok) return parsed;
  return checkKeyId(parsed, createHash('sha256').update(keyIdInput(parsed.name, parsed.publicKey, COSIGNATURE_V1_TYPE)).digest());
}

/** The signature line of `privateKey`'s cosignature, as `name`, on the checkpoint text, at `timestamp` (POSIX seconds). */
export function cosign(checkpointText: string, privateKey: KeyObject, name: string, timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`tlog: a cosignature's timestamp is whole seconds from 0, not ${timestamp}`);
  const id = cosignerKeyId(name, rawPublicKey(privateKey));
  const time = new Uint8Array(8);
  new DataView(time.buffer).setBigUint64(0, BigInt(timestamp));
  const signature = new Uint8Array(sign(null, Buffer.from(cosignedMessage(checkpointText, timestamp)), privateKey));
  return `${SIGNATURE_PREFIX}${name} ${encodeBase64(Uint8Array.of(...id, ...time, ...signature))}\n`;
}

export interface Cosignature {
  /** The cosigner as `<name>+<key ID>`. */
  cosigner: string;
  /** When it cosigned, POSIX seconds. */
  timestamp: number;
}

/** The cosignature by `cosigner` on `note`, verified, or why there is none; one dated over a minute past `now` (POSIX seconds) is refused. */
export function cosignatureBy(note: string, cosigner: NoteVerifier, now = Number.POSITIVE_INFINITY): ({ ok: true } & Cosignature) | Refusal {
  const signed = noteSignaturesBy(note, cosigner);
  if (!signed.ok) return signed;
  const label = keyLabel(cosigner.name, cosigner.keyId);
  for (const { line, signature } of signed.signatures) {
    const parts = cosignatureParts(signature, label, line);
    if (!parts.ok) return parts;
    const { timestamp } = parts;
    if (timestamp > now + 60) return refuse(`the cosignature by ${label} (signature line ${line}) is dated ${timestamp}, in the future`);
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(cosigner.publicKey).toString('base64url') }, format: 'jwk' });
    if (!verify(null, Buffer.from(cosignedMessage(signed.text, timestamp)), key, parts.signature)) {
      return refuse(`the cosignature by ${label} (signature line ${line}) does not verify over the checkpoint`);
    }
    return { ok: true, cosigner: label, timestamp };
  }
  return refuse(`the note has no cosignature by ${label}`);
}

/**
 * Whether at least `quorum` of `cosigners` cosigned `note` (whose log signature the caller checks):
 * the ones that did, or a refusal naming how many did and why each other one does not count.
 */
export function checkCosignatures(note: string, cosigners: readonly NoteVerifier[], quorum: number, now?: number): { ok: true; cosignatures: Cosignature[] } | Refusal {
  if (!Number.isSafeInteger(quorum) || quorum < 0 || quorum > cosigners.length) return refuse(`a quorum of ${quorum} among ${cosigners.length} witnesses cannot be met`);
  const cosignatures: Cosignature[] = [];
  const missing: string[] = [];
  for (const cosigner of cosigners) {
    const found = cosignatureBy(note, cosigner, now);
    if (found.ok) cosignatures.push({ cosigner: found.cosigner, timestamp: found.timestamp });
    else missing.push(found.reason);
  }
  if (cosignatures.length >= quorum) return { ok: true, cosignatures };
  return refuse(`the checkpoint has ${cosignatures.length} valid witness cosignature${cosignatures.length === 1 ? '' : 's'}, ${quorum} required: ${missing.join('; ')}`);
}
