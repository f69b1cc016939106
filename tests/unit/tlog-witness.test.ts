/**
 * Witnesses (c2sp.org/tlog-witness, c2sp.org/tlog-cosignature): the cosignature's bytes and key ID,
 * the add-checkpoint body both ways, the witness's judgement (404 unknown log, 403 no valid log
 * signature, 400 an old size past the checkpoint, 409 with its size, 422 a proof that does not
 * verify) and its state kept before it cosigns, across a restart; the log's client that learns a
 * witness's size from its 409 and publishes only with the quorum. Each case breaks one rule.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/domain/tlog/base64.ts';
import { checkCosignatures, cosign, cosignatureBy, cosignedMessage, cosignerKeyId, formatCosignerKey, parseCosignerKey } from '../../src/domain/tlog/cosignature.ts';
import { formatCheckpoint, formatVerifierKey, rawPublicKey, signCheckpoint } from '../../src/domain/tlog/note.ts';
import { consistencyProof, consistencyProofIndexes } from '../../src/domain/tlog/proofs.ts';
import { witnessCheck } from '../../src/domain/tlog/receipt-proof-check.ts';
import { appendHashes, appendReadIndexes, leafHash, rootFromSubtrees, storedHashIndex, treeHashIndexes, type Hash } from '../../src/domain/tlog/tree.ts';
import { formatAddCheckpoint, judgeAddCheckpoint, MAX_PROOF_LINES, parseAddCheckpoint } from '../../src/domain/tlog/witness-protocol.ts';
import { createWitnessClient, WitnessQuorumError } from '../../src/services/witness-client.ts';
import { createWitness, readWitnessState } from '../../src/services/witness-server.ts';

const ORIGIN = 'example.test/api/transparency/receipts';
const LOG_KEY = generateKeyPairSync('ed25519').privateKey;
const LOG_VKEY = formatVerifierKey(ORIGIN, rawPublicKey(LOG_KEY));
const encode = (text: string) => new TextEncoder().encode(text);

/** A log of `entries` (strings) in memory: its stored hashes, a signed checkpoint of any size, consistency proofs. */
function memoryTree(entries: string[]) {
  const hashes = new Map<number, Hash>();
  entries.forEach((text, index) => appendHashes(index, leafHash(encode(text)), appendReadIndexes(index).map((at) => hashes.get(at)!)).forEach((hash, i) => hashes.set(storedHashIndex(0, index) + i, hash)));
  const read = (indexes: number[]) => indexes.map((index) => hashes.get(index)!);
  return {
    root: (size: number) => rootFromSubtrees(read(treeHashIndexes(size))),
    checkpoint: (size: number, key = LOG_KEY) => signCheckpoint(formatCheckpoint({ origin: ORIGIN, size, root: rootFromSubtrees(read(treeHashIndexes(size))) }), key, ORIGIN),
    proof: (oldSize: number, newSize: number) => consistencyProof(oldSize, newSize, read(consistencyProofIndexes(oldSize, newSize))),
  };
}

const entries = Array.from({ length: 12 }, (_, i) => `{"receipt":${i}}`);
const log = memoryTree(entries);
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const stateFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'witness-'));
  dirs.push(dir);
  return join(dir, 'state.json');
};

function witness(file = stateFile(), name = 'witness.test/w1', key = generateKeyPairSync('ed25519').privateKey) {
  return { file, key, name, ...createWitness({ key, name, stateFile: file, logs: new Map([[ORIGIN, LOG_VKEY]]), now: () => 1_700_000_000 }) };
}

describe('cosignatures (c2sp.org/tlog-cosignature, cosignature/v1)', () => {
  it('reads the timestamp of the spec\'s own example where the spec puts it: big-endian, after the key ID', () => {
    const bytes = decodeBase64('jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==')!;
    expect(bytes.length).toBe(4 + 8 + 64);
    expect(new DataView(bytes.buffer, bytes.byteOffset + 4, 8).getBigUint64(0)).toBe(1_679_315_147n);
  });

  it('signs `cosignature/v1`, the time and the checkpoint text with a key ID of type 0x04, and verifies only that', () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const publicKey = rawPublicKey(key);
    const vkey = formatCosignerKey('witness.test/w1', publicKey);
    const parsed = parseCosignerKey(vkey);
    expect(parsed.ok).toBe(true);
    const verifier = (parsed as { ok: true; verifier: Parameters<typeof cosignatureBy>[1] }).verifier;
    expect(Buffer.from(verifier.keyId).toString('hex')).toBe(Buffer.from(cosignerKeyId('witness.test/w1', publicKey)).toString('hex'));
    // Type 0x04 is not the log's 0x01: the same key as a log key has another ID.
    expect(vkey.split('+')[1]).not.toBe(formatVerifierKey('witness.test/w1', publicKey).split('+')[1]);
    expect(parseCosignerKey(formatVerifierKey('witness.test/w1', publicKey))).toMatchObject({ ok: false, reason: 'the key is of signature type 0x01, not an Ed25519 cosigner (0x04)' });

    const note = log.checkpoint(5);
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    expect(cosignedMessage(text, 7)).toBe(`cosignature/v1\ntime 7\n${text}`);
    const line = cosign(text, key, 'witness.test/w1', 1_700_000_000);
    expect(cosignatureBy(`${note}${line}`, verifier)).toEqual({ ok: true, cosigner: vkey.split('+').slice(0, 2).join('+'), timestamp: 1_700_000_000 });
    // Another checkpoint, another time, a cut signature: refused.
    expect(cosignatureBy(`${log.checkpoint(6)}${line}`, verifier)).toMatchObject({ ok: false, reason: expect.stringContaining('does not verify over the checkpoint') });
    const bytes = decodeBase64(line.slice(line.lastIndexOf(' ') + 1, -1))!;
    const otherTime = Uint8Array.from(bytes);
    otherTime[11] = (otherTime[11]! + 1) % 256;
    expect(cosignatureBy(`${note}— witness.test/w1 ${Buffer.from(otherTime).toString('base64')}\n`, verifier).ok).toBe(false);
    expect(cosignatureBy(`${note}— witness.test/w1 ${Buffer.from(bytes.subarray(0, 70)).toString('base64')}\n`, verifier)).toMatchObject({ ok: false, reason: expect.stringContaining('is 70 bytes, not 76') });
    // Dated beyond a minute from now: refused when the reader gives the time.
    expect(cosignatureBy(`${note}${line}`, verifier, 1_700_000_000 - 61)).toMatchObject({ ok: false, reason: expect.stringContaining('in the future') });
    expect(cosignatureBy(`${note}${line}`, verifier, 1_700_000_000 - 60).ok).toBe(true);
    expect(cosignatureBy(note, verifier)).toMatchObject({ ok: false, reason: expect.stringContaining('no signature by witness.test/w1+') });
    expect(() => cosign(text, key, 'witness.test/w1', -1)).toThrow(RangeError);
  });

  it('signs at the edges of time and refuses a key that is no cosigner\'s, each rule on its own', () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const vkey = formatCosignerKey('witness.test/w1', rawPublicKey(key));
    expect(parseCosignerKey(`  ${vkey}\n`)).toMatchObject({ ok: true, verifier: { name: 'witness.test/w1' } });
    expect(() => formatCosignerKey('witness test', rawPublicKey(key))).toThrow(RangeError);
    expect(() => formatCosignerKey('witness.test/w1', rawPublicKey(key).subarray(0, 31))).toThrow(RangeError);
    const verifier = (parseCosignerKey(vkey) as { ok: true; verifier: Parameters<typeof cosignatureBy>[1] }).verifier;
    const note = log.checkpoint(3);
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    expect(cosignatureBy(`${note}${cosign(text, key, 'witness.test/w1', 0)}`, verifier)).toMatchObject({ ok: true, timestamp: 0 });
    expect(cosignatureBy(`${note}${cosign(text, key, 'witness.test/w1', Number.MAX_SAFE_INTEGER)}`, verifier)).toMatchObject({ ok: true, timestamp: Number.MAX_SAFE_INTEGER });
    // A timestamp past 2^53 - 1 (here 2^63) is refused before its signature is read.
    const line = cosign(text, key, 'witness.test/w1', 5);
    const bytes = decodeBase64(line.slice(line.lastIndexOf(' ') + 1, -1))!;
    bytes.set([0x80, 0, 0, 0, 0, 0, 0, 0], 4);
    expect(cosignatureBy(`${note}— witness.test/w1 ${Buffer.from(bytes).toString('base64')}\n`, verifier)).toMatchObject({ ok: false, reason: expect.stringContaining('has timestamp 9223372036854775808, beyond what it may be') });
    expect(() => cosign(text, key, 'witness.test/w1', 1.5)).toThrow(RangeError);
  });

  it('counts a quorum of distinct valid cosignatures, and names why each other one does not count', () => {
    const keys = [1, 2, 3].map(() => generateKeyPairSync('ed25519').privateKey);
    const names = ['w.test/a', 'w.test/b', 'w.test/c'];
    const verifiers = keys.map((key, i) => (parseCosignerKey(formatCosignerKey(names[i]!, rawPublicKey(key))) as { ok: true; verifier: Parameters<typeof cosignatureBy>[1] }).verifier);
    const note = log.checkpoint(4);
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    const twoOfThree = `${note}${cosign(text, keys[0]!, names[0]!, 10)}${cosign(text, keys[1]!, names[1]!, 11)}`;
    expect(checkCosignatures(twoOfThree, verifiers, 2)).toMatchObject({ ok: true, cosignatures: [{ timestamp: 10 }, { timestamp: 11 }] });
    expect(checkCosignatures(twoOfThree, verifiers, 3)).toMatchObject({ ok: false, reason: expect.stringMatching(/^the checkpoint has 2 valid witness cosignatures, 3 required: the note has no signature by w\.test\/c\+/) });
    // One witness's cosignature twice is one witness.
    const twice = `${note}${cosign(text, keys[0]!, names[0]!, 10)}${cosign(text, keys[0]!, names[0]!, 12)}`;
    expect(checkCosignatures(twice, verifiers, 2).ok).toBe(false);
    expect(checkCosignatures(twoOfThree, verifiers, 4)).toMatchObject({ ok: false, reason: 'a quorum of 4 among 3 witnesses cannot be met' });
    expect(checkCosignatures(twoOfThree, verifiers, -1)).toMatchObject({ ok: false, reason: 'a quorum of -1 among 3 witnesses cannot be met' });
    expect(checkCosignatures(twoOfThree, verifiers, 1.5)).toMatchObject({ ok: false, reason: 'a quorum of 1.5 among 3 witnesses cannot be met' });
    expect(checkCosignatures(note, verifiers, 0)).toEqual({ ok: true, cosignatures: [] });
    const policy = { keys: [], verifiers, quorum: 2 };
    expect(witnessCheck(twoOfThree, policy)).toMatchObject({ id: 'log_witnesses', ok: true });
    expect(witnessCheck(note, policy)).toMatchObject({ id: 'log_witnesses', ok: false });
  });
});

describe('add-checkpoint (c2sp.org/tlog-witness)', () => {
  it('reads and writes the body by the spec: old size, proof lines, an empty line, the checkpoint', () => {
    const proof = log.proof(4, 9);
    const body = formatAddCheckpoint({ oldSize: 4, proof, checkpoint: log.checkpoint(9) });
    expect(body.startsWith(`old 4\n${Buffer.from(proof[0]!).toString('base64')}\n`)).toBe(true);
    expect(parseAddCheckpoint(body)).toEqual({ ok: true, oldSize: 4, proof, checkpoint: log.checkpoint(9) });
    for (const [bad, reason] of [
      ['old 04\n\nx', /not 'old <size>'/],
      ['old -1\n\nx', /not 'old <size>'/],
      ['older 4\n\nx', /not 'old <size>'/],
      ['old 4\nnot base64!\n\nx', /proof line 1 is not/],
      [`old 4\n${Buffer.alloc(31).toString('base64')}\n\nx`, /proof line 1 is not the standard base64 of a 32-byte hash/],
      ['old 4\n', /no empty line/],
      [`old 4\n${`${Buffer.alloc(32).toString('base64')}\n`.repeat(MAX_PROOF_LINES + 1)}\nx`, /64 consistency proof lines, more than 63/],
    ] as const) {
      expect(parseAddCheckpoint(bad), bad.slice(0, 20)).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
    }
    expect(parseAddCheckpoint(`old 4\n${`${Buffer.alloc(32).toString('base64')}\n`.repeat(MAX_PROOF_LINES)}\nx`).ok).toBe(true);
    // An empty first line is no old size; anything before `old` neither; a size past 2^53 - 1 is not counted.
    expect(parseAddCheckpoint('\n\nx')).toMatchObject({ ok: false, reason: expect.stringMatching(/not 'old <size>'/) });
    expect(parseAddCheckpoint('xold 4\n\nx')).toMatchObject({ ok: false, reason: expect.stringMatching(/not 'old <size>'/) });
    expect(parseAddCheckpoint('old 9999999999999999\n\nx')).toMatchObject({ ok: false, reason: 'the old size 9999999999999999 is beyond what this witness counts' });
    expect(parseAddCheckpoint('old 9007199254740991\n\nx')).toMatchObject({ ok: true, oldSize: 9_007_199_254_740_991 });
  });

  it('judges each rule on its own: unknown log 404, no valid signature 403, old past the size 400, another old size 409, a bad proof 422', () => {
    const logs = new Map([[ORIGIN, LOG_VKEY]]);
    const kept = new Map([[ORIGIN, { size: 4, root: log.root(4) }]]);
    const judge = (oldSize: number, proof: Hash[], checkpoint: string) => judgeAddCheckpoint({ oldSize, proof, checkpoint }, logs, (origin) => kept.get(origin));
    expect(judge(4, log.proof(4, 9), log.checkpoint(9))).toMatchObject({ status: 200, origin: ORIGIN, tree: { size: 9 } });
    expect(judge(4, log.proof(4, 9), log.checkpoint(9).replace(ORIGIN, 'other.test/log'))).toMatchObject({ status: 404 });
    expect(judge(4, log.proof(4, 9), log.checkpoint(9, generateKeyPairSync('ed25519').privateKey))).toMatchObject({ status: 403 });
    expect(judge(10, [], log.checkpoint(9))).toMatchObject({ status: 400 });
    expect(judge(3, log.proof(3, 9), log.checkpoint(9))).toEqual({ status: 409, size: 4, reason: expect.stringContaining('has size 4, not 3') });
    expect(judge(4, log.proof(3, 9), log.checkpoint(9))).toMatchObject({ status: 422 });
    expect(judge(4, [], log.checkpoint(4))).toMatchObject({ status: 200, tree: { size: 4 } });
    expect(judge(4, log.proof(4, 9).slice(0, 1), log.checkpoint(4))).toMatchObject({ status: 422 });
    // The same size with another root: the log forked.
    const forked = memoryTree(['{"receipt":"forked"}', ...entries.slice(1)]);
    expect(judge(4, [], forked.checkpoint(4))).toEqual({ status: 409, size: 4, reason: expect.stringContaining('another root') });
    expect(judge(4, forked.proof(4, 9), forked.checkpoint(9))).toMatchObject({ status: 422 });
    // A log never seen: from size 0, with an empty proof only.
    expect(judgeAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint(3) }, logs, () => undefined)).toMatchObject({ status: 200 });
    expect(judgeAddCheckpoint({ oldSize: 0, proof: log.proof(2, 3), checkpoint: log.checkpoint(3) }, logs, () => undefined)).toMatchObject({ status: 422 });
  });

  it('keeps each cosigned tree before it answers, and never cosigns a fork, across a restart', () => {
    const first = witness();
    const answer = first.addCheckpoint(formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint(5) }));
    expect(answer.status).toBe(200);
    expect(readWitnessState(first.file).get(ORIGIN)).toEqual({ size: 5, root: log.root(5) });
    const verifier = (parseCosignerKey(first.verifierKey) as { ok: true; verifier: Parameters<typeof cosignatureBy>[1] }).verifier;
    expect(cosignatureBy(`${log.checkpoint(5)}${answer.body}`, verifier)).toMatchObject({ ok: true, timestamp: 1_700_000_000 });
    // Restarted on the same state: the old size it expects is 5, and a forked 5 is refused with its size.
    const again = witness(first.file, first.name, first.key);
    expect(again.addCheckpoint(formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint(5) }))).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '5\n' });
    const forked = memoryTree(['{"receipt":"rewritten"}', ...entries.slice(1)]);
    expect(again.addCheckpoint(formatAddCheckpoint({ oldSize: 5, proof: [], checkpoint: forked.checkpoint(5) })).status).toBe(409);
    expect(again.addCheckpoint(formatAddCheckpoint({ oldSize: 5, proof: forked.proof(5, 8), checkpoint: forked.checkpoint(8) })).status).toBe(422);
    expect(again.addCheckpoint(formatAddCheckpoint({ oldSize: 5, proof: log.proof(5, 8), checkpoint: log.checkpoint(8) })).status).toBe(200);
    expect(readWitnessState(first.file).get(ORIGIN)?.size).toBe(8);
    expect(again.addCheckpoint('not a body').status).toBe(400);
  });

  it('cosigns nothing when its state cannot be kept', () => {
    const dir = join(stateFile(), '..', 'gone');
    const broken = witness(join(dir, 'state.json'));
    // Its directory is now a file: the state cannot be written.
    writeFileSync(dir, 'not a directory');
    expect(() => broken.addCheckpoint(formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint(3) }))).toThrow(/EEXIST|ENOTDIR/);
  });

  it('refuses a state file that is not a witness\'s', () => {
    const file = stateFile();
    writeFileSync(file, JSON.stringify({ version: 9, logs: {} }));
    expect(() => readWitnessState(file)).toThrow(/not a witness state file/);
    writeFileSync(file, JSON.stringify({ version: 1, logs: { [ORIGIN]: { size: -1, root: 'AA==' } } }));
    expect(() => readWitnessState(file)).toThrow(/malformed tree/);
    expect(readFileSync(file, 'utf8')).toContain('-1');
  });
});

describe('the log\'s witness client', () => {
  it('learns each witness\'s size from its 409, sends the proof from there, and publishes with the quorum only', async () => {
    const a = witness(undefined, 'witness.test/a');
    const b = witness(undefined, 'witness.test/b');
    const proofs: Array<[number, number]> = [];
    const keys = [a, b].map((w) => ({ verifierKey: w.verifierKey, url: `http://${w.name}`, verifier: (parseCosignerKey(w.verifierKey) as { ok: true; verifier: Parameters<typeof cosignatureBy>[1] }).verifier }));
    const byUrl = new Map([[keys[0]!.url, a], [keys[1]!.url, b]]);
    let down = false;
    const send = async (url: string, body: string) => {
      if (down && url === keys[1]!.url) throw new Error('connect ECONNREFUSED');
      const reply = byUrl.get(url)!.addCheckpoint(body);
      return { status: reply.status, body: reply.body };
    };
    const client = createWitnessClient(keys, 2, async (oldSize, newSize) => {
      proofs.push([oldSize, newSize]);
      return log.proof(oldSize, newSize);
    }, send);
    // B saw size 3 before (another instance of the log showed it), A nothing.
    b.addCheckpoint(formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint(3) }));
    const cosigned = await client.cosign(log.checkpoint(6), 6);
    expect(checkCosignatures(cosigned, keys.map((key) => key.verifier), 2).ok).toBe(true);
    expect(proofs).toEqual([[3, 6]]);
    // Known sizes are used at once next time.
    await client.cosign(log.checkpoint(9), 9);
    expect(proofs).toEqual([[3, 6], [6, 9], [6, 9]]);
    down = true;
    await expect(client.cosign(log.checkpoint(11), 11)).rejects.toThrow(WitnessQuorumError);
    await expect(client.cosign(log.checkpoint(11), 11)).rejects.toThrow(/1 of 2 witnesses cosigned size 11, 2 required: .*ECONNREFUSED/);
    const lenient = createWitnessClient(keys, 1, async (oldSize, newSize) => log.proof(oldSize, newSize), send);
    expect(checkCosignatures(await lenient.cosign(log.checkpoint(12), 12), keys.map((key) => key.verifier), 1).ok).toBe(true);
  });

  it('does not publish a fork a witness refuses', async () => {
    const a = witness();
    a.addCheckpoint(formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint(5) }));
    const key = { verifierKey: a.verifierKey, url: 'http://a', verifier: (parseCosignerKey(a.verifierKey) as { ok: true; verifier: Parameters<typeof cosignatureBy>[1] }).verifier };
    const forked = memoryTree(['{"receipt":"rewritten"}', ...entries.slice(1)]);
    const client = createWitnessClient([key], 1, async (oldSize, newSize) => forked.proof(oldSize, newSize), async (_url, body) => a.addCheckpoint(body));
    await expect(client.cosign(forked.checkpoint(5), 5)).rejects.toThrow(/holds size 5 with another root/);
    await expect(client.cosign(forked.checkpoint(7), 7)).rejects.toThrow(/answered 422/);
  });
});
