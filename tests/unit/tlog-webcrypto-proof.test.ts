/**
 * The receipt page's check of a tlog-proof (src/domain/tlog/webcrypto-tlog-proof.ts), run here on
 * Node's WebCrypto, which is the browsers' API: it accepts every proof the server makes and agrees
 * with the node:crypto verifier (verifyTlogProof) on every tampering, reason for reason, naming
 * the step that failed; and where WebCrypto has no Ed25519 it says the signature was not checked
 * while still refusing a proof that does not include the entry.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCheckpoint, formatVerifierKey, generateNoteKey, signCheckpoint, type NoteKeyPair } from '../../src/domain/tlog/note.ts';
import { inclusionProof, inclusionProofIndexes } from '../../src/domain/tlog/proofs.ts';
import { formatTlogProof, verifyTlogProof } from '../../src/domain/tlog/tlog-proof.ts';
import { leafHash, rootFromSubtrees, storedHashCount, treeHashIndexes } from '../../src/domain/tlog/tree.ts';
import { cosignersOf, verifyTlogProofWithWebCrypto, type WebCryptoProofVerdict } from '../../src/domain/tlog/webcrypto-tlog-proof.ts';
import { checkCosignatures, cosign, formatCosignerKey, parseCosignerKey } from '../../src/domain/tlog/cosignature.ts';
import type { NoteVerifier } from '../../src/domain/tlog/note-text.ts';
import { entry, hex, reader, storedHashes } from './tlog-reference.ts';

const ORIGIN = 'receipts.example/log';
const KEY = generateNoteKey();
const VKEY = formatVerifierKey(ORIGIN, KEY.publicKey);
const STORED = storedHashes(Array.from({ length: 300 }, (_, i) => leafHash(entry(i))));
const subtle = globalThis.crypto.subtle;

function checkpointFor(size: number, origin = ORIGIN, key: NoteKeyPair = KEY, name = origin) {
  const root = rootFromSubtrees(reader(STORED, storedHashCount(size))(treeHashIndexes(size)));
  return signCheckpoint(formatCheckpoint({ origin, size, root }), key.privateKey, name);
}

function proofFor(index: number, size: number, checkpoint = checkpointFor(size)) {
  const proof = inclusionProof(index, size, reader(STORED, storedHashCount(size))(inclusionProofIndexes(index, size)));
  return formatTlogProof({ index, proof, checkpoint });
}

function flipProofHash(text: string, line = 3): string {
  const lines = text.split('\n');
  const flipped = Buffer.from(lines[line]!, 'base64');
  flipped[0]! ^= 1;
  lines[line] = flipped.toString('base64');
  return lines.join('\n');
}

/** A WebCrypto as a browser without Ed25519 has it: importing an Ed25519 key is NotSupportedError. */
const withoutEd25519 = new Proxy(subtle, {
  get(target, property) {
    if (property === 'importKey') {
      return (...args: Parameters<SubtleCrypto['importKey']>) =>
        (args[2] as Algorithm).name === 'Ed25519' ? Promise.reject(new DOMException('Unrecognized name.', 'NotSupportedError')) : target.importKey(...args);
    }
    const value = Reflect.get(target, property) as unknown;
    return typeof value === 'function' ? value.bind(target) : value;
  },
});

const failure = (verdict: WebCryptoProofVerdict) => (verdict.ok ? 'accepted' : `${verdict.step}: ${verdict.reason}`);

describe('checking a tlog-proof with WebCrypto', () => {
  it('accepts the proof of any entry of any tree, with its index, tree size, root and origin, the signature verified', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }).chain((size) => fc.tuple(fc.integer({ min: 0, max: size - 1 }), fc.constant(size))),
        async ([index, size]) => {
          const verdict = await verifyTlogProofWithWebCrypto(entry(index), proofFor(index, size), VKEY, subtle);
          const root = rootFromSubtrees(reader(STORED, storedHashCount(size))(treeHashIndexes(size)));
          expect(verdict.ok && { ...verdict, root: hex(verdict.root) }).toEqual({ ok: true, index, size, root: hex(root), origin: ORIGIN });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('takes the verifier key as the site serves it, with its final newline', async () => {
    expect((await verifyTlogProofWithWebCrypto(entry(2), proofFor(2, 5), `${VKEY}\n`, subtle)).ok).toBe(true);
  });

  const other = generateNoteKey();
  const text = proofFor(2, 5);
  it.each<[string, Uint8Array, string, string, string]>([
    ['another entry', entry(3), text, VKEY, 'inclusion'],
    ['a proof hash with one bit flipped', entry(2), flipProofHash(text), VKEY, 'inclusion'],
    ['another index', entry(2), text.replace('index 2', 'index 3'), VKEY, 'inclusion'],
    ['an index beyond the tree', entry(2), text.replace('index 2', 'index 5'), VKEY, 'inclusion'],
    ['a missing proof hash', entry(2), text.split('\n').filter((_, i) => i !== 3).join('\n'), VKEY, 'inclusion'],
    ['a checkpoint of a bigger tree', entry(2), proofFor(2, 5, checkpointFor(6)), VKEY, 'inclusion'],
    ['a changed checkpoint', entry(2), text.replace(`${ORIGIN}\n5\n`, `${ORIGIN}\n6\n`), VKEY, 'checkpoint_signature'],
    ['a checkpoint signed by another key', entry(2), proofFor(2, 5, checkpointFor(5, ORIGIN, other)), VKEY, 'checkpoint_signature'],
    ['another key of the same name', entry(2), text, formatVerifierKey(ORIGIN, other.publicKey), 'checkpoint_signature'],
    ['a checkpoint of another origin, signed by the key', entry(2), proofFor(2, 5, checkpointFor(5, 'other.example/log', KEY, ORIGIN)), VKEY, 'checkpoint'],
    ['a key whose ID is not its own', entry(2), text, VKEY.replace(/\+([0-9a-f]{8})\+/, (_, id: string) => `+${id === '00000000' ? '00000001' : '00000000'}+`), 'verifier_key'],
    ['a key that is not a verifier key', entry(2), text, 'nonsense', 'verifier_key'],
    ['another proof format', entry(2), text.replace('c2sp.org/tlog-proof@v1', 'x'), VKEY, 'proof_text'],
  ])('refuses %s, naming the step, with the reason the server gives', async (_, bytes, proofText, key, step) => {
    const verdict = await verifyTlogProofWithWebCrypto(bytes, proofText, key, subtle);
    expect(verdict.ok ? 'accepted' : verdict.step).toBe(step);
    // The server's verifier prefixes the part ("the checkpoint: ...") and otherwise says the same.
    const server = verifyTlogProof(bytes, proofText, key, key.slice(0, key.indexOf('+')));
    expect(server.ok).toBe(false);
    expect(!verdict.ok && !server.ok && server.reason.endsWith(`: ${verdict.reason}`)).toBe(true);
  });

  it('says the signature was not checked where WebCrypto has no Ed25519, and still checks the rest', async () => {
    const verdict = await verifyTlogProofWithWebCrypto(entry(2), proofFor(2, 5), VKEY, withoutEd25519);
    expect(verdict).toMatchObject({ ok: true, index: 2, size: 5, signatureUnchecked: expect.stringMatching(/no Ed25519/) });
    // A changed checkpoint cannot be caught without the signature, but an entry the proof does not include is.
    expect(failure(await verifyTlogProofWithWebCrypto(entry(2), flipProofHash(proofFor(2, 5)), VKEY, withoutEd25519))).toMatch(/^inclusion: the proof of record 2 leads to root/);
    expect(failure(await verifyTlogProofWithWebCrypto(entry(2), proofFor(2, 5, checkpointFor(5, ORIGIN, other)), VKEY, withoutEd25519))).toMatch(/^checkpoint_signature: the note has no signature by/);
  });
});

describe('the receipt page counts the cosignatures of the witnesses its reader names, as verify-receipt does', () => {
  const witnesses = [generateNoteKey(), generateNoteKey(), generateNoteKey()];
  const names = ['witness.example/a', 'witness.example/b', 'witness.example/c'];
  const keys = witnesses.map((witness, i) => formatCosignerKey(names[i]!, witness.publicKey));
  const verifiers = keys.map((key) => (parseCosignerKey(key) as { ok: true; verifier: NoteVerifier }).verifier);
  const checkpoint = checkpointFor(40);
  const text = checkpoint.slice(0, checkpoint.indexOf('\n\n') + 1);
  const cosigned = `${checkpoint}${cosign(text, witnesses[0]!.privateKey, names[0]!, 1_700_000_000)}${cosign(text, witnesses[1]!.privateKey, names[1]!, 1_700_000_001)}`;
  const proof = formatTlogProof({ index: 7, proof: inclusionProof(7, 40, reader(STORED, storedHashCount(40))(inclusionProofIndexes(7, 40))), checkpoint: cosigned });

  it('passes with the quorum met and fails, at the witnesses step, without it, agreeing with node:crypto', async () => {
    const twoOfThree = await verifyTlogProofWithWebCrypto(entry(7), proof, VKEY, subtle, { keys, quorum: 2 });
    expect(twoOfThree).toMatchObject({ ok: true, index: 7, cosigners: [expect.stringMatching(/^witness\.example\/a\+/), expect.stringMatching(/^witness\.example\/b\+/)] });
    expect(checkCosignatures(cosigned, verifiers, 2).ok).toBe(true);
    const all = await verifyTlogProofWithWebCrypto(entry(7), proof, VKEY, subtle, { keys, quorum: 3 });
    expect(all).toMatchObject({ ok: false, step: 'witnesses', reason: expect.stringMatching(/^the checkpoint has 2 valid witness cosignatures, 3 required: the note has no signature by witness\.example\/c\+/) });
    expect(checkCosignatures(cosigned, verifiers, 3).ok).toBe(false);
    // Without witnesses asked for, nothing is counted and the verdict names none.
    expect(await verifyTlogProofWithWebCrypto(entry(7), proof, VKEY, subtle)).not.toHaveProperty('cosigners');
  });

  it('counts no cosignature over another text, and refuses a key that is not a witness\'s', async () => {
    const forged = `${checkpoint}${cosign(checkpointFor(41).split('\n\n')[0]! + '\n', witnesses[0]!.privateKey, names[0]!, 1)}`;
    expect(await cosignersOf(forged, { keys: [keys[0]!], quorum: 1 }, subtle)).toMatchObject({ ok: false, reason: expect.stringContaining('does not verify over the checkpoint') });
    expect(await cosignersOf(cosigned, { keys: [VKEY], quorum: 1 }, subtle)).toMatchObject({ ok: false, reason: expect.stringContaining('signature type 0x01, not an Ed25519 cosigner (0x04)') });
    const wrongId = keys[0]!.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    expect(await cosignersOf(cosigned, { keys: [wrongId], quorum: 1 }, subtle)).toMatchObject({ ok: false, reason: expect.stringContaining('is not the ID') });
    expect(await cosignersOf(cosigned, { keys: [keys[2]!], quorum: 0 }, subtle)).toEqual({ ok: true, cosigners: [] });
  });
});
