/**
 * The text side of the receipt log's signed checkpoint (c2sp.org/signed-note,
 * c2sp.org/tlog-checkpoint): reading a verifier key, splitting a note into its text and the
 * signatures a given key made, and reading the checkpoint in the text. Platform-free: no hash is
 * computed and no signature checked here, so the server (note.ts, node:crypto) and the receipt page
 * (webcrypto-tlog-proof.ts, WebCrypto) open a checkpoint by the same rules and refuse it with the
 * same reasons; each supplies the SHA-256 of the key ID and the Ed25519 verification.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { concatBytes, HASH_SIZE, sameBytes, toHex, type Hash } from './hash.ts';

export type Refusal = { ok: false; reason: string };

const refuse = (reason: string): Refusal => ({ ok: false, reason });

/** The signature type byte signed-note assigns to Ed25519. */
export const ED25519_SIGNATURE_TYPE = 0x01;
export const ED25519_PUBLIC_KEY_SIZE = 32;
export const ED25519_SIGNATURE_SIZE = 64;
/** signed-note: verifiers must accept at least 16; golang's note package refuses more than 100. */
export const MAX_NOTE_SIGNATURES = 100;

/** The start of a signature line: an em dash (U+2014) and a space. */
export const SIGNATURE_PREFIX = '\u2014 ';

// ---------------------------------------------------------------------------------------------
// Keys

const isWellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

/** A key name is non-empty, with no Unicode space, no plus sign and no control character. */
export const isValidKeyName = (name: string): boolean => name.length > 0 && isWellFormed(name) && !/[\s\u0085+\u0000-\u001f]/u.test(name);

/** The signature type byte c2sp.org/tlog-cosignature assigns to an Ed25519 cosigner's `cosignature/v1`. */
export const COSIGNATURE_V1_TYPE = 0x04;

/** The key types a verifier key may name here, as a refusal names them. */
const KEY_TYPES: Record<number, string> = { [ED25519_SIGNATURE_TYPE]: 'Ed25519 (0x01)', [COSIGNATURE_V1_TYPE]: 'an Ed25519 cosigner (0x04)' };

/**
 * What the key ID hashes: key name || 0x0A || type || 32-byte Ed25519 public key (the ID is the first
 * 4 bytes of its SHA-256); the type is 0x01 for a signer, 0x04 for a cosigner.
 */
export const keyIdInput = (name: string, publicKey: Uint8Array, type = ED25519_SIGNATURE_TYPE): Uint8Array => concatBytes(new TextEncoder().encode(name), Uint8Array.of(0x0a, type), publicKey);

/** Who signs a note, as a verifier knows them: the key name, the key ID, the raw Ed25519 public key. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: Uint8Array;
  readonly publicKey: Uint8Array;
}

export const keyLabel = (name: string, id: Uint8Array): string => `${name}+${toHex(id)}`;

/** `<name>+<8 hex digits of key ID>+<base64(type || public key)>`, given the key ID. */
export const verifierKeyText = (name: string, id: Uint8Array, publicKey: Uint8Array, type = ED25519_SIGNATURE_TYPE): string => `${keyLabel(name, id)}+${encodeBase64(Uint8Array.of(type, ...publicKey))}`;

/**
 * The parts of a verifier key, refusing any other spelling; the key ID is returned as written; the
 * caller checks it is the first 4 bytes of SHA-256(keyIdInput(name, publicKey)) with `checkKeyId`.
 */
export function parseVerifierKeyText(text: string, type = ED25519_SIGNATURE_TYPE): { ok: true; name: string; keyId: Uint8Array; publicKey: Uint8Array } | Refusal {
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  // Stryker disable next-line EqualityOperator: the second plus sign comes after the first, so it is never at 0
  if (second < 0) return refuse('a verifier key is <name>+<key ID>+<base64 key>, and this one has fewer than two plus signs');
  const [name, idHex, key64] = [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
  if (!isValidKeyName(name)) return refuse(`'${name}' is not a key name (non-empty, no spaces, no '+')`);
  if (!/^[0-9a-f]{8}$/.test(idHex)) return refuse(`key ID '${idHex}' is not 8 lowercase hexadecimal digits`);
  const key = decodeBase64(key64);
  if (!key || key.length === 0) return refuse(`the key '${key64}' is not standard base64`);
  if (key[0] !== type) return refuse(`the key is of signature type 0x${toHex(key.subarray(0, 1))}, not ${KEY_TYPES[type]}`);
  const publicKey = key.slice(1);
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) return refuse(`the Ed25519 public key is ${publicKey.length} bytes, not ${ED25519_PUBLIC_KEY_SIZE}`);
  const keyId = Uint8Array.from(idHex.match(/../g)!, (byte) => parseInt(byte, 16));
  return { ok: true, name, keyId, publicKey };
}

/** The verifier, once `keyIdHash` (SHA-256 of keyIdInput) starts with the key ID the key text wrote. */
export function checkKeyId(parsed: { name: string; keyId: Uint8Array; publicKey: Uint8Array }, keyIdHash: Uint8Array): { ok: true; verifier: NoteVerifier } | Refusal {
  const id = keyIdHash.slice(0, 4);
  if (toHex(id) !== toHex(parsed.keyId)) return refuse(`key ID ${toHex(parsed.keyId)} is not the ID of ${parsed.name}'s key (${toHex(id)})`);
  return { ok: true, verifier: { name: parsed.name, keyId: id, publicKey: parsed.publicKey } };
}

// ---------------------------------------------------------------------------------------------
// Signed notes

/** Why `text` cannot be the text of a note (UTF-8, no control character but newline), or null. */
export function textRefusal(text: string): string | null {
  if (!isWellFormed(text)) return 'the note is not valid UTF-8';
  const control = /[\u0000-\u0009\u000b-\u001f]/.exec(text);
  if (control) return `the note holds control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} at character ${control.index}`;
  return null;
}

/** One signature of a note by the verifier's key: its 1-based line among the signature lines and the 64 (or, malformed, other) signature bytes. */
export interface NoteSignature {
  readonly line: number;
  readonly signature: Uint8Array;
}

/**
 * The text of a signed note and the signatures by `verifier`'s key (same name and key ID), of
 * which there must be one; signatures by other keys are ignored, but every signature line must be
 * well formed. Every signature returned must then verify over `text` (`badSignature` says why not).
 */
export function noteSignaturesBy(note: string | Uint8Array, verifier: NoteVerifier): { ok: true; text: string; signatures: NoteSignature[] } | Refusal {
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
  const signatureLines = message.slice(split + 2);
  if (signatureLines.length === 0) return refuse('the note has no signature lines');
  if (!signatureLines.endsWith('\n')) return refuse('the last signature line does not end with a newline');
  const lines = signatureLines.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) return refuse(`the note has ${lines.length} signatures, more than ${MAX_NOTE_SIGNATURES}`);

  const expected = keyLabel(verifier.name, verifier.keyId);
  const signers: string[] = [];
  const signatures: NoteSignature[] = [];
  for (const [i, line] of lines.entries()) {
    const which = `signature line ${i + 1}`;
    if (!line.startsWith(SIGNATURE_PREFIX)) return refuse(`${which} does not start with an em dash (U+2014) and a space`);
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    // Stryker disable next-line EqualityOperator: a space first leaves an empty name, which the key name rule refuses next
    if (space < 0) return refuse(`${which} is not '— <key name> <base64 signature>'`);
    const [name, signature64] = [rest.slice(0, space), rest.slice(space + 1)];
    if (!isValidKeyName(name)) return refuse(`${which} names '${name}', which is not a key name`);
    const bytes = decodeBase64(signature64);
    if (!bytes || bytes.length < 5) return refuse(`${which} (${name}) does not carry standard base64 of a key ID and a signature`);
    const id = bytes.subarray(0, 4);
    signers.push(keyLabel(name, id));
    if (name === verifier.name && sameBytes(id, verifier.keyId)) signatures.push({ line: i + 1, signature: bytes.slice(4) });
  }
  if (signatures.length === 0) return refuse(`the note has no signature by ${expected}; it is signed by ${signers.join(', ')}`);
  return { ok: true, text, signatures };
}

/** The refusal of a note whose signature by `verifier` on `line` does not verify. */
export const badSignature = (verifier: NoteVerifier, line: number): Refusal =>
  refuse(`the signature by ${keyLabel(verifier.name, verifier.keyId)} (signature line ${line}) does not verify over the note text`);

// ---------------------------------------------------------------------------------------------
// Cosignatures (c2sp.org/tlog-cosignature, cosignature/v1)

/** What a `cosignature/v1` signs: its header, its time, then the checkpoint's text (its lines, no signatures). */
export const cosignedMessage = (checkpointText: string, timestamp: number): string => `cosignature/v1\ntime ${timestamp}\n${checkpointText}`;

/**
 * A cosignature's bytes after its key ID (noteSignaturesBy hands them over): a big-endian u64
 * timestamp and the Ed25519 signature, or why they are not one. A timestamp past 2^53 - 1 is refused
 * (the spec allows up to 2^63 - 1; no honest witness writes one).
 */
export function cosignatureParts(bytes: Uint8Array, label: string, line: number): { ok: true; timestamp: number; signature: Uint8Array } | Refusal {
  const which = `the cosignature by ${label} (signature line ${line})`;
  if (bytes.length !== 8 + ED25519_SIGNATURE_SIZE) return refuse(`${which} is ${bytes.length + 4} bytes, not ${4 + 8 + ED25519_SIGNATURE_SIZE}`);
  const timestamp = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  if (timestamp > BigInt(Number.MAX_SAFE_INTEGER)) return refuse(`${which} has timestamp ${timestamp}, beyond what it may be`);
  return { ok: true, timestamp: Number(timestamp), signature: bytes.subarray(8) };
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

/** Why a checkpoint of `origin` is not one of the log the reader expects, or null. */
export const originRefusal = (origin: string, expectedOrigin: string): string | null =>
  origin === expectedOrigin ? null : `the checkpoint's origin is '${origin}', not '${expectedOrigin}'`;
