/**
 * The receipt log's checkpoint and the signed note that carries it (c2sp.org/tlog-checkpoint,
 * c2sp.org/signed-note), Ed25519 only, through node:crypto. The checkpoint is the log's one mutable
 * resource and the only thing its key signs, so it is what monitors and verifiers trust; this module
 * writes it in the exact bytes the specs give (golang.org/x/mod/sumdb/note and Sunlight read it) and
 * opens it strictly: anything malformed, a signature by the expected key that does not verify, a
 * checkpoint of another origin, is refused with a reason that names the line, the key or the value.
 * Signatures by other keys (witnesses' cosignatures, a rotated key) are ignored, as the spec says.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { decodeBase64, encodeBase64 } from './base64.ts';
import { HASH_SIZE, type Hash } from './tree.ts';

export type Refusal = { ok: false; reason: string };

const refuse = (reason: string): Refusal => ({ ok: false, reason });

/** The signature type byte signed-note assigns to Ed25519. */
export const ED25519_SIGNATURE_TYPE = 0x01;
export const ED25519_PUBLIC_KEY_SIZE = 32;
export const ED25519_SIGNATURE_SIZE = 64;
/** signed-note: verifiers must accept at least 16; golang's note package refuses more than 100. */
export const MAX_NOTE_SIGNATURES = 100;

/** The start of a signature line: an em dash (U+2014) and a space. */
const SIGNATURE_PREFIX = '\u2014 ';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

// ---------------------------------------------------------------------------------------------
// Keys

/** A key name is non-empty, with no Unicode space, no plus sign and no control character. */
export const isValidKeyName = (name: string): boolean => name.length > 0 && isWellFormed(name) && !/[\s\u0085+\u0000-\u001f]/u.test(name);

const isWellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

/** The key ID: the first 4 bytes of SHA-256(key name || 0x0A || 0x01 || 32-byte Ed25519 public key). */
export function keyId(name: string, publicKey: Uint8Array): Uint8Array {
  const hash = createHash('sha256').update(name, 'utf8').update(Uint8Array.of(0x0a, ED25519_SIGNATURE_TYPE)).update(publicKey).digest();
  return new Uint8Array(hash.subarray(0, 4));
}

/** Who signs a note, as a verifier knows them: the key name, the key ID, the raw Ed25519 public key. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: Uint8Array;
  readonly publicKey: Uint8Array;
}

const keyLabel = (name: string, id: Uint8Array) => `${name}+${hex(id)}`;

/** The verifier key a log publishes: `<name>+<8 hex digits of key ID>+<base64(0x01 || public key)>`. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new RangeError(`tlog: '${name}' is not a key name (non-empty, no spaces, no '+')`);
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) throw new RangeError(`tlog: an Ed25519 public key is ${ED25519_PUBLIC_KEY_SIZE} bytes, not ${publicKey.length}`);
  return `${keyLabel(name, keyId(name, publicKey))}+${encodeBase64(Uint8Array.of(ED25519_SIGNATURE_TYPE, ...publicKey))}`;
}

/** The verifier a verifier key names, refusing any other spelling and a key ID that is not its key's. */
export function parseVerifierKey(text: string): { ok: true; verifier: NoteVerifier } | Refusal {
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (second < 0) return refuse('a verifier key is <name>+<key ID>+<base64 key>, and this one has fewer than two plus signs');
  const [name, idHex, key64] = [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
  if (!isValidKeyName(name)) return refuse(`'${name}' is not a key name (non-empty, no spaces, no '+')`);
  if (!/^[0-9a-f]{8}$/.test(idHex)) return refuse(`key ID '${idHex}' is not 8 lowercase hexadecimal digits`);
  const key = decodeBase64(key64);
  if (!key || key.length === 0) return refuse(`the key '${key64}' is not standard base64`);
  if (key[0] !== ED25519_SIGNATURE_TYPE) return refuse(`the key is of signature type 0x${hex(key.subarray(0, 1))}, not Ed25519 (0x01)`);
  const publicKey = key.slice(1);
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) return refuse(`the Ed25519 public key is ${publicKey.length} bytes, not ${ED25519_PUBLIC_KEY_SIZE}`);
  const id = keyId(name, publicKey);
  if (hex(id) !== idHex) return refuse(`key ID ${idHex} is not the ID of ${name}'s key (${hex(id)})`);
  return { ok: true, verifier: { name, keyId: id, publicKey } };
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
export function parsePrivateKeyFile(pem: string): ({ ok: true } & NoteKeyPair) | Refusal {
  if (!pem.trimStart().startsWith('-----BEGIN PRIVATE KEY-----')) return refuse('the key file is not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)');
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

/** Why `text` cannot be the text of a note (UTF-8, no control character but newline), or null. */
function textRefusal(text: string): string | null {
  if (!isWellFormed(text)) return 'the note is not valid UTF-8';
  const control = /[\u0000-\u0009\u000b-\u001f]/.exec(text);
  if (control) return `the note holds control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} at character ${control.index}`;
  return null;
}

/** The signed note: `text`, an empty line, and the signature line `— <name> base64(key ID || signature)`. */
export function signNote(text: string, privateKey: KeyObject, name: string): string {
  const refusal = textRefusal(text) ?? (text.endsWith('\n') ? null : 'the note text does not end with a newline');
  if (refusal) throw new RangeError(`tlog: ${refusal}`);
  const publicKey = rawPublicKey(privateKey);
  if (!isValidKeyName(name)) throw new RangeError(`tlog: '${name}' is not a key name (non-empty, no spaces, no '+')`);
  const signature = sign(null, Buffer.from(text, 'utf8'), privateKey);
  return `${text}\n${SIGNATURE_PREFIX}${name} ${encodeBase64(Uint8Array.of(...keyId(name, publicKey), ...signature))}\n`;
}

function verifies(verifier: NoteVerifier, text: string, signature: Uint8Array): boolean {
  if (signature.length !== ED25519_SIGNATURE_SIZE) return false;
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(verifier.publicKey).toString('base64url') }, format: 'jwk' });
    return verify(null, Buffer.from(text, 'utf8'), key, signature);
  } catch {
    return false;
  }
}

/**
 * The text of a signed note that `verifier` signed. Every signature by the verifier's key (same name
 * and key ID) must verify, and there must be one; signatures by other keys are ignored, but every
 * signature line must be well formed.
 */
export function openNote(note: string | Uint8Array, verifier: NoteVerifier): { ok: true; text: string } | Refusal {
  let message: string;
  if (typeof note === 'string') {
    message = note;
  } else {
    try {
      message = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(note);
    } catch {
      return refuse('the note is not valid UTF-8');
    }
  }
  const refusal = textRefusal(message);
  if (refusal) return refuse(refusal);
  const split = message.lastIndexOf('\n\n');
  if (split < 0) return refuse('the note has no empty line before its signatures');
  const text = message.slice(0, split + 1);
  const signatures = message.slice(split + 2);
  if (signatures.length === 0) return refuse('the note has no signature lines');
  if (!signatures.endsWith('\n')) return refuse('the last signature line does not end with a newline');
  const lines = signatures.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) return refuse(`the note has ${lines.length} signatures, more than ${MAX_NOTE_SIGNATURES}`);

  const expected = keyLabel(verifier.name, verifier.keyId);
  const signers: string[] = [];
  let verified = false;
  for (const [i, line] of lines.entries()) {
    const which = `signature line ${i + 1}`;
    if (!line.startsWith(SIGNATURE_PREFIX)) return refuse(`${which} does not start with an em dash (U+2014) and a space`);
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    if (space < 0) return refuse(`${which} is not '— <key name> <base64 signature>'`);
    const [name, signature64] = [rest.slice(0, space), rest.slice(space + 1)];
    if (!isValidKeyName(name)) return refuse(`${which} names '${name}', which is not a key name`);
    const bytes = decodeBase64(signature64);
    if (!bytes || bytes.length < 5) return refuse(`${which} (${name}) does not carry standard base64 of a key ID and a signature`);
    const id = bytes.subarray(0, 4);
    signers.push(keyLabel(name, id));
    if (name !== verifier.name || !sameBytes(id, verifier.keyId)) continue;
    if (!verifies(verifier, text, bytes.subarray(4))) return refuse(`the signature by ${expected} (${which}) does not verify over the note text`);
    verified = true;
  }
  if (!verified) return refuse(`the note has no signature by ${expected}; it is signed by ${signers.join(', ')}`);
  return { ok: true, text };
}

// ---------------------------------------------------------------------------------------------
// Checkpoints

/** A checkpoint: the log's origin, its tree size and root hash, and any extension lines. */
export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Hash;
  readonly extensions: readonly string[];
}

/** The checkpoint's note text: `<origin>\n<size>\n<base64 root>\n`, then each extension line. */
export function formatCheckpoint(checkpoint: { origin: string; size: number; root: Hash; extensions?: readonly string[] }): string {
  const { origin, size, root, extensions = [] } = checkpoint;
  const line = (value: string) => value.length > 0 && !value.includes('\n') && textRefusal(value) === null;
  if (!line(origin)) throw new RangeError(`tlog: '${origin}' is not a checkpoint origin (one non-empty line)`);
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`tlog: ${size} is not a tree size`);
  if (root.length !== HASH_SIZE) throw new RangeError(`tlog: the root hash is ${root.length} bytes, not ${HASH_SIZE}`);
  if (!extensions.every(line)) throw new RangeError('tlog: checkpoint extension lines are non-empty single lines');
  return [origin, String(size), encodeBase64(root), ...extensions].map((value) => `${value}\n`).join('');
}

/** The checkpoint a note text holds, refusing any other shape. */
export function parseCheckpoint(text: string): { ok: true; checkpoint: Checkpoint } | Refusal {
  if (!text.endsWith('\n')) return refuse('the checkpoint does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return refuse(`the checkpoint has ${lines.length} lines; it needs the origin, the tree size and the root hash`);
  const [origin, sizeText, root64, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin.length === 0) return refuse("the checkpoint's origin line is empty");
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) return refuse(`the checkpoint's tree size '${sizeText}' is not a decimal number without leading zeros`);
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) return refuse(`the checkpoint's tree size ${sizeText} is beyond 2^53`);
  const root = decodeBase64(root64);
  if (!root) return refuse(`the checkpoint's root hash '${root64}' is not standard base64`);
  if (root.length !== HASH_SIZE) return refuse(`the checkpoint's root hash is ${root.length} bytes, not ${HASH_SIZE}`);
  const empty = extensions.findIndex((extension) => extension.length === 0);
  if (empty >= 0) return refuse(`the checkpoint's extension line ${empty + 1} is empty`);
  return { ok: true, checkpoint: { origin, size, root, extensions } };
}

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
  if (parsed.checkpoint.origin !== expectedOrigin) return refuse(`the checkpoint's origin is '${parsed.checkpoint.origin}', not '${expectedOrigin}'`);
  return { ok: true, checkpoint: parsed.checkpoint, text: opened.text };
}
