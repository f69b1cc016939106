/**
 * The receipt log's checkpoint and the signed note that carries it (c2sp.org/tlog-checkpoint,
 * c2sp.org/signed-note), Ed25519 only, through node:crypto. The checkpoint is the log's one mutable
 * resource and the only thing its key signs, so it is what monitors and verifiers trust; this module
 * writes it in the exact bytes the specs give (golang.org/x/mod/sumdb/note and Sunlight read it) and
 * opens it strictly: anything malformed, a signature by the expected key that does not verify, a
 * checkpoint of another origin, is refused with a reason that names the line, the key or the value.
 * Signatures by other keys (witnesses' cosignatures, a rotated key) are ignored, as the spec says.
 * The rules of the text are note-text.ts's, which the receipt page shares; this module adds the keys,
 * the signing and the hashing and verifying node:crypto does.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { encodeBase64 } from './base64.ts';
import {
  badSignature,
  checkKeyId,
  ED25519_PUBLIC_KEY_SIZE,
  isValidKeyName,
  keyIdInput,
  noteSignaturesBy,
  originRefusal,
  parseCheckpoint,
  parseVerifierKeyText,
  SIGNATURE_PREFIX,
  textRefusal,
  verifierKeyText,
  type Checkpoint,
  type NoteVerifier,
  type Refusal,
} from './note-text.ts';

export {
  ED25519_PUBLIC_KEY_SIZE,
  ED25519_SIGNATURE_SIZE,
  ED25519_SIGNATURE_TYPE,
  formatCheckpoint,
  isValidKeyName,
  MAX_NOTE_SIGNATURES,
  parseCheckpoint,
  type Checkpoint,
  type NoteVerifier,
  type Refusal,
} from './note-text.ts';

const refuse = (reason: string): Refusal => ({ ok: false, reason });

// ---------------------------------------------------------------------------------------------
// Keys

/** The key ID: the first 4 bytes of SHA-256(key name || 0x0A || 0x01 || 32-byte Ed25519 public key). */
export function keyId(name: string, publicKey: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(keyIdInput(name, publicKey)).digest().subarray(0, 4));
}

/** The verifier key a log publishes: `<name>+<8 hex digits of key ID>+<base64(0x01 || public key)>`. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new RangeError(`tlog: '${name}' is not a key name (non-empty, no spaces, no '+')`);
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) throw new RangeError(`tlog: an Ed25519 public key is ${ED25519_PUBLIC_KEY_SIZE} bytes, not ${publicKey.length}`);
  return verifierKeyText(name, keyId(name, publicKey), publicKey);
}

/** The verifier a verifier key names, refusing any other spelling and a key ID that is not its key's. */
export function parseVerifierKey(text: string): { ok: true; verifier: NoteVerifier } | Refusal {
  const parsed = parseVerifierKeyText(text);
  if (!parsed.ok) return parsed;
  return checkKeyId(parsed, createHash('sha256').update(keyIdInput(parsed.name, parsed.publicKey)).digest());
}

/** The raw 32-byte public key of an Ed25519 key (private or public). */
export function rawPublicKey(key: KeyObject): Uint8Array {
  if (key.asymmetricKeyType !== 'ed25519') throw new RangeError(`tlog: a ${key.asymmetricKeyType ?? key.type} key is not Ed25519`);
  const jwk = key.export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
}

export interface NoteKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: Uint8Array;
}

/** A new Ed25519 key for signing checkpoints. */
export function generateNoteKey(): NoteKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

/** The key file: the private key as PKCS#8 PEM. */
export function formatPrivateKeyFile(privateKey: KeyObject): string {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') throw new RangeError('tlog: the key file holds an Ed25519 private key');
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** The key a key file holds, refusing anything but an Ed25519 private key in PKCS#8 PEM. */
export function parsePrivateKeyFile(text: string): ({ ok: true } & NoteKeyPair) | Refusal {
  // OpenSSL refuses a PEM that does not start at its first byte; a blank line an editor left is not a reason to.
  const pem = text.trimStart();
  if (!pem.startsWith('-----BEGIN PRIVATE KEY-----')) return refuse('the key file is not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    return refuse(`the key file does not parse as a PKCS#8 PEM private key: ${(error as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') return refuse(`the key file holds a ${privateKey.asymmetricKeyType} key, not Ed25519`);
  return { ok: true, privateKey, publicKey: rawPublicKey(privateKey) };
}

// ---------------------------------------------------------------------------------------------
// Signed notes

/** The signed note: `text`, an empty line, and the signature line `— <name> base64(key ID || signature)`. */
export function signNote(text: string, privateKey: KeyObject, name: string): string {
  const refusal = textRefusal(text) ?? (text.endsWith('\n') ? null : 'the note text does not end with a newline');
  if (refusal) throw new RangeError(`tlog: ${refusal}`);
  const publicKey = rawPublicKey(privateKey);
  if (!isValidKeyName(name)) throw new RangeError(`tlog: '${name}' is not a key name (non-empty, no spaces, no '+')`);
  const signature = sign(null, Buffer.from(text), privateKey);
  return `${text}\n${SIGNATURE_PREFIX}${name} ${encodeBase64(Uint8Array.of(...keyId(name, publicKey), ...signature))}\n`;
}

// A signature of another length, or a verifier's key that is not 32 bytes, does not verify: node:crypto
// answers false for the one and throws for the other.
function verifies(verifier: NoteVerifier, text: string, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(verifier.publicKey).toString('base64url') }, format: 'jwk' });
    return verify(null, Buffer.from(text), key, signature);
  } catch {
    // A key of another length: no signature verifies with it.
  }
  return false;
}

/**
 * The text of a signed note that `verifier` signed. Every signature by the verifier's key (same name
 * and key ID) must verify, and there must be one; signatures by other keys are ignored, but every
 * signature line must be well formed.
 */
export function openNote(note: string | Uint8Array, verifier: NoteVerifier): { ok: true; text: string } | Refusal {
  const signed = noteSignaturesBy(note, verifier);
  if (!signed.ok) return signed;
  const bad = signed.signatures.find(({ signature }) => !verifies(verifier, signed.text, signature));
  if (bad) return badSignature(verifier, bad.line);
  return { ok: true, text: signed.text };
}

// ---------------------------------------------------------------------------------------------
// Checkpoints

/** The signed checkpoint; `body` must be a checkpoint (formatCheckpoint), `name` is the log's key name, its origin. */
export function signCheckpoint(body: string, privateKey: KeyObject, name: string): string {
  const parsed = parseCheckpoint(body);
  if (!parsed.ok) throw new RangeError(`tlog: ${parsed.reason}`);
  return signNote(body, privateKey, name);
}

/**
 * The checkpoint of a signed note, once the signature by the key `verifierKey` names verifies and
 * its origin is `expectedOrigin`.
 */
export function openCheckpoint(note: string | Uint8Array, verifierKey: string, expectedOrigin: string): { ok: true; checkpoint: Checkpoint; text: string } | Refusal {
  const key = parseVerifierKey(verifierKey);
  if (!key.ok) return refuse(`the verifier key: ${key.reason}`);
  const opened = openNote(note, key.verifier);
  if (!opened.ok) return opened;
  const parsed = parseCheckpoint(opened.text);
  if (!parsed.ok) return parsed;
  const otherOrigin = originRefusal(parsed.checkpoint.origin, expectedOrigin);
  if (otherOrigin) return refuse(otherOrigin);
  return { ok: true, checkpoint: parsed.checkpoint, text: opened.text };
}

/**
 * A checkpoint the Ed25519 key `publicKey` signed as the log of `origin`, or as the log of another
 * origin (the note's own first line) when the site moved: the key's name is the origin, so only the
 * key's holder can sign under either, and `otherOrigin` says when it was the other. The log reads its
 * history signed before a move this way, a monitor the checkpoints signed after one. Another key, or
 * a note that does not verify under its own origin, is refused with the reason for `origin`.
 */
export function openOwnCheckpoint(note: string, publicKey: Uint8Array, origin: string): ({ ok: true; checkpoint: Checkpoint; text: string; otherOrigin?: string }) | Refusal {
  const opened = openCheckpoint(note, formatVerifierKey(origin, publicKey), origin);
  if (opened.ok) return opened;
  const named = note.slice(0, Math.max(0, note.indexOf('\n')));
  // A first line that is no key name is no log's origin (and would be no verifier key's name).
  if (!isValidKeyName(named)) return opened;
  const moved = openCheckpoint(note, formatVerifierKey(named, publicKey), named);
  return moved.ok ? { ...moved, otherOrigin: named } : opened;
}
