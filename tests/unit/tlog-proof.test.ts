/**
 * c2sp.org/tlog-proof@v1 for the receipt log (src/domain/tlog/tlog-proof.ts): the spec's example
 * parses line by line; proofs made from a log's stored hashes and signed checkpoint verify for any
 * entry; and each kind of tampering (the entry, the index, a proof hash, the checkpoint's text or
 * signature, another key or origin, the text's shape) is refused, naming the part that failed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCheckpoint, formatVerifierKey, generateNoteKey, signCheckpoint } from '../../src/domain/tlog/note.ts';
import { inclusionProof, inclusionProofIndexes } from '../../src/domain/tlog/proofs.ts';
import { formatTlogProof, parseTlogProof, verifyTlogProof } from '../../src/domain/tlog/tlog-proof.ts';
import { leafHash, rootFromSubtrees, storedHashCount, treeHashIndexes } from '../../src/domain/tlog/tree.ts';
import { entry, hex, reader, storedHashes } from './tlog-reference.ts';

const ORIGIN = 'receipts.example/log';
const KEY = generateNoteKey();
const VKEY = formatVerifierKey(ORIGIN, KEY.publicKey);
const STORED = storedHashes(Array.from({ length: 1000 }, (_, i) => leafHash(entry(i))));

function checkpointFor(size: number, origin = ORIGIN, key = KEY) {
  const root = rootFromSubtrees(reader(STORED, storedHashCount(size))(treeHashIndexes(size)));
  return signCheckpoint(formatCheckpoint({ origin, size, root }), key.privateKey, origin);
}

function proofFor(index: number, size: number, options: { extra?: Uint8Array; checkpoint?: string } = {}) {
  const proof = inclusionProof(index, size, reader(STORED, storedHashCount(size))(inclusionProofIndexes(index, size)));
  return formatTlogProof({ index, proof, checkpoint: options.checkpoint ?? checkpointFor(size), ...(options.extra ? { extra: options.extra } : {}) });
}

const reasonOf = (result: { ok: boolean; reason?: string }) => (result.ok ? 'accepted' : result.reason);

describe('the tlog-proof text', () => {
  it("parses the spec's example", () => {
    const example = [
      'c2sp.org/tlog-proof@v1',
      'extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ',
      'index 73894',
      'gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=',
      'B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=',
      'EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=',
      'RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=',
      'AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=',
      '',
      'example.com/fancylog',
      '109482',
      'sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=',
      '',
      '— example.com/fancylog hI2DJw[...]1roloI=',
      '',
    ].join('\n');
    const parsed = parseTlogProof(example);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.index).toBe(73894);
    expect(Buffer.from(parsed.extra!).toString('latin1').startsWith('age-v1.2.1-darwin-arm64.tar.gz')).toBe(true);
    expect(parsed.proof.map((hash) => Buffer.from(hash).toString('base64'))).toEqual(example.split('\n').slice(3, 8));
    expect(parsed.checkpoint).toBe('example.com/fancylog\n109482\nsFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=\n\n— example.com/fancylog hI2DJw[...]1roloI=\n');
    expect(formatTlogProof(parsed)).toBe(example);
  });

  it('writes the lines in the order the spec gives', () => {
    const checkpoint = checkpointFor(5);
    const text = proofFor(2, 5);
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['c2sp.org/tlog-proof@v1', 'index 2']);
    expect(lines.slice(2, 5).every((line) => /^[A-Za-z0-9+/]{43}=$/.test(line))).toBe(true);
    expect(lines[5]).toBe('');
    expect(text.endsWith(`\n\n${checkpoint}`)).toBe(true);
    expect(proofFor(0, 1)).toBe(`c2sp.org/tlog-proof@v1\nindex 0\n\n${checkpointFor(1)}`);
  });

  it.each([
    ['another header', (text: string) => text.replace('c2sp.org/tlog-proof@v1', 'c2sp.org/tlog-proof@v2'), "the first line is not 'c2sp.org/tlog-proof@v1'"],
    ['no index line', (text: string) => text.replace('index 2\n', ''), "the line after the header is not 'index <decimal>'"],
    ['an index with a leading zero', (text: string) => text.replace('index 2', 'index 02'), "index '02' is not a decimal number without leading zeros"],
    ['a negative index', (text: string) => text.replace('index 2', 'index -2'), "index '-2' is not a decimal number without leading zeros"],
    ['an index beyond 2^53', (text: string) => text.replace('index 2', 'index 9007199254740993'), 'index 9007199254740993 is beyond 2^53'],
    ['a proof hash in base64url', (text: string) => text.replace(/\n([A-Za-z0-9+/]{43}=)\n/, (_, hash: string) => `\n${Buffer.from(hash, 'base64').toString('base64url')}\n`), /^inclusion proof line 1 is not the standard base64 of a 32-byte hash$/],
    ['a short proof hash', (text: string) => text.replace(/\n([A-Za-z0-9+/]{43}=)\n/, '\nAAAA\n'), 'inclusion proof line 1 is not the standard base64 of a 32-byte hash'],
    ['no empty line', (text: string) => text.split('\n\n')[0]! + '\n', 'the proof has no empty line before its checkpoint'],
    ['no checkpoint', (text: string) => text.slice(0, text.indexOf('\n\n') + 2), 'the proof has no checkpoint after its empty line'],
    ['extra data not in base64', (text: string) => text.replace('index 2', 'extra !!!!\nindex 2'), 'the extra line is not standard base64'],
  ])('refuses a text with %s', (_, tamper, reason) => {
    expect(reasonOf(parseTlogProof(tamper(proofFor(2, 5))))).toMatch(reason);
  });

  it('refuses more than 64 proof hashes', () => {
    const many = `c2sp.org/tlog-proof@v1\nindex 0\n${`${Buffer.alloc(32).toString('base64')}\n`.repeat(65)}\n${checkpointFor(1)}`;
    expect(reasonOf(parseTlogProof(many))).toBe('the inclusion proof has more than 64 hashes');
  });
});

describe('verifying a tlog-proof', () => {
  it('accepts the proof of any entry of any tree, and gives its index, tree size and root', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }).chain((size) => fc.tuple(fc.integer({ min: 0, max: size - 1 }), fc.constant(size))),
        ([index, size]) => {
          const verdict = verifyTlogProof(entry(index), proofFor(index, size), VKEY, ORIGIN);
          const root = rootFromSubtrees(reader(STORED, storedHashCount(size))(treeHashIndexes(size)));
          expect(verdict.ok && { ...verdict, root: hex(verdict.root) }).toEqual({ ok: true, index, size, root: hex(root) });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('returns extra data as it came, and does not let it change the verdict', () => {
    const verdict = verifyTlogProof(entry(2), proofFor(2, 5, { extra: Uint8Array.of(1, 2, 3) }), VKEY, ORIGIN);
    expect(verdict.ok && [...verdict.extra!]).toEqual([1, 2, 3]);
  });

  it('refuses another entry, and says which part failed', () => {
    const text = proofFor(2, 5);
    expect(reasonOf(verifyTlogProof(entry(3), text, VKEY, ORIGIN))).toMatch(/^the inclusion of the entry at index 2: the proof of record 2 leads to root [0-9a-f]{64}, not to [0-9a-f]{64} of the tree of size 5$/);
    expect(reasonOf(verifyTlogProof(Uint8Array.of(...entry(2), 0), text, VKEY, ORIGIN))).toMatch(/^the inclusion of the entry at index 2: /);
  });

  it('refuses another index, a changed, missing or added proof hash', () => {
    const text = proofFor(2, 5);
    expect(reasonOf(verifyTlogProof(entry(2), text.replace('index 2', 'index 3'), VKEY, ORIGIN))).toMatch(/^the inclusion of the entry at index 3: the proof of record 3 leads to root/);
    expect(reasonOf(verifyTlogProof(entry(2), text.replace('index 2', 'index 5'), VKEY, ORIGIN))).toBe('the inclusion of the entry at index 5: index 5 is not below the tree size 5');
    const lines = text.split('\n');
    const flipped = Buffer.from(lines[3]!, 'base64');
    flipped[0]! ^= 1;
    expect(reasonOf(verifyTlogProof(entry(2), [...lines.slice(0, 3), flipped.toString('base64'), ...lines.slice(4)].join('\n'), VKEY, ORIGIN))).toMatch(/^the inclusion of the entry at index 2: the proof of record 2 leads to root/);
    expect(reasonOf(verifyTlogProof(entry(2), [...lines.slice(0, 3), ...lines.slice(4)].join('\n'), VKEY, ORIGIN))).toBe('the inclusion of the entry at index 2: the proof has 2 hashes; record 2 in a tree of size 5 needs 3');
    expect(reasonOf(verifyTlogProof(entry(2), [...lines.slice(0, 3), lines[2]!, ...lines.slice(3)].join('\n'), VKEY, ORIGIN))).toBe('the inclusion of the entry at index 2: the proof has 4 hashes; record 2 in a tree of size 5 needs 3');
  });

  it('refuses a checkpoint changed, signed by another key, of another origin, or of another tree', () => {
    const text = proofFor(2, 5);
    expect(reasonOf(verifyTlogProof(entry(2), text.replace(`${ORIGIN}\n5\n`, `${ORIGIN}\n6\n`), VKEY, ORIGIN))).toMatch(/^the checkpoint: the signature by receipts\.example\/log\+[0-9a-f]{8} \(signature line 1\) does not verify over the note text$/);
    const other = generateNoteKey();
    expect(reasonOf(verifyTlogProof(entry(2), proofFor(2, 5, { checkpoint: checkpointFor(5, ORIGIN, other) }), VKEY, ORIGIN))).toMatch(/^the checkpoint: the note has no signature by receipts\.example\/log\+/);
    expect(reasonOf(verifyTlogProof(entry(2), proofFor(2, 5, { checkpoint: checkpointFor(5, 'other.example/log') }), formatVerifierKey('other.example/log', KEY.publicKey), ORIGIN))).toBe(
      "the checkpoint: the checkpoint's origin is 'other.example/log', not 'receipts.example/log'",
    );
    expect(reasonOf(verifyTlogProof(entry(2), proofFor(2, 5, { checkpoint: checkpointFor(6) }), VKEY, ORIGIN))).toMatch(/^the inclusion of the entry at index 2: the proof of record 2 leads to root [0-9a-f]{64}, not to [0-9a-f]{64} of the tree of size 6$/);
    expect(reasonOf(verifyTlogProof(entry(2), text, 'nonsense', ORIGIN))).toMatch(/^the checkpoint: the verifier key: /);
    expect(reasonOf(verifyTlogProof(entry(2), text.replace('c2sp.org/tlog-proof@v1', 'x'), VKEY, ORIGIN))).toBe("the proof text: the first line is not 'c2sp.org/tlog-proof@v1'");
  });
});
