/**
 * ErgoTree headers of every defined version, with and without the size flag: an address whose tree
 * has a version the parser does not know is valid, reported with its header and an unparsed body;
 * a header that breaks the rules (reserved bits, a version above 0 without the size flag, a size
 * that does not match) is not an ErgoTree. The box and tx tools report the header too.
 */
import { ErgoAddress, FEE_CONTRACT, Network } from '@fleet-sdk/core';
import { BoxValue, Contract, ErgoBox, ErgoTree, I64, Tokens, Transaction, TxId } from 'ergo-lib-wasm-nodejs';
import { blake2b256 } from '@fleet-sdk/crypto';
import { describe, expect, it } from 'vitest';
import { devToolRequestSchema } from '../../schemas/dev-tools.ts';
import { devToolResultSchema } from '../../schemas/dev-tool-results.ts';
import { runDevTool } from '../../src/domain/dev-tools.ts';
import { readErgoTree } from '../../src/domain/ergo/ergo-tree-header.ts';

function run(body: Record<string, unknown>): any {
  return JSON.parse(JSON.stringify(devToolResultSchema.parse(runDevTool(devToolRequestSchema.parse(body)))));
}

const vlq = (n: number) => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out).toString('hex');
};

/** The miner-fee contract's body (a version 0 tree with segregated constants) under another header. */
const FEE_BODY = FEE_CONTRACT.slice(2);
const treeWithHeader = (header: number, body = FEE_BODY) => `${header.toString(16).padStart(2, '0')}${header & 0x08 ? vlq(body.length / 2) : ''}${body}`;
const p2s = (tree: string, network = Network.Testnet) => ErgoAddress.fromErgoTree(tree, network).encode(network);

describe('readErgoTree', () => {
  it.each([
    [0x10, 0, false, true, true],
    [0x18, 0, true, true, true],
    [0x19, 1, true, true, true],
    [0x1a, 2, true, true, false],
    [0x1b, 3, true, true, false],
  ])('header %s: version %i, size flag %s, constant segregation %s, body parsed %s', (header, version, sizeFlag, segregation, parsed) => {
    const reading = readErgoTree(Buffer.from(treeWithHeader(header), 'hex'));
    expect(reading).toMatchObject({ ok: true, header: { header: header.toString(16).padStart(2, '0'), version, size_flag: sizeFlag, constant_segregation: segregation, body_parsed: parsed } });
    if (!parsed) expect((reading as { note: string }).note).toMatch(new RegExp(`version ${version} is newer than the parser`));
  });

  it('reads trees without constant segregation, version 0 and 1', () => {
    const p2pkBody = '08cd0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
    expect(readErgoTree(Buffer.from(`00${p2pkBody}`, 'hex'))).toMatchObject({ ok: true, header: { version: 0, size_flag: false, constant_segregation: false, body_parsed: true } });
    expect(readErgoTree(Buffer.from(treeWithHeader(0x09, p2pkBody), 'hex'))).toMatchObject({ ok: true, header: { version: 1, size_flag: true, constant_segregation: false, body_parsed: true } });
  });

  it('refuses reserved bits, a version above 0 without the size flag, and a size that does not match', () => {
    expect(readErgoTree(Buffer.from(`30${FEE_BODY}`, 'hex'))).toMatchObject({ ok: false, message: expect.stringMatching(/reserved bits/) });
    expect(readErgoTree(Buffer.from(`12${FEE_BODY}`, 'hex'))).toMatchObject({ ok: false, message: expect.stringMatching(/version 2 must set the size flag/) });
    expect(readErgoTree(Buffer.from(`1a${vlq(FEE_BODY.length / 2 + 1)}${FEE_BODY}`, 'hex'))).toMatchObject({ ok: false, message: expect.stringMatching(/declares a body of/) });
    expect(readErgoTree(new Uint8Array())).toMatchObject({ ok: false });
  });
});

describe('address tool and ErgoTree versions', () => {
  it('decodes a testnet P2S address of a version 2 tree as valid, with its header and an unparsed body', () => {
    const tree = treeWithHeader(0x1a);
    const answer = run({ action: 'address', input: p2s(tree), network: 'testnet' });
    expect(answer.result).toMatchObject({
      valid: true,
      address_type: 'P2S',
      ergo_tree: tree,
      ergo_tree_header: { header: '1a', version: 2, size_flag: true, constant_segregation: true, body_parsed: false },
    });
    expect(answer.warnings.map((warning: { code: string }) => warning.code)).toContain('ergo_tree_version_unparsed');
    // The same tree given as hex is encoded to the same address.
    expect(run({ action: 'address', input: tree, encoding: 'hex', network: 'testnet' }).result).toMatchObject({ valid: true, address: p2s(tree) });
  });

  it('parses versions 0 and 1 and reports them parsed; refuses a broken header as not an ErgoTree', () => {
    for (const header of [0x10, 0x18, 0x19]) {
      const answer = run({ action: 'address', input: p2s(treeWithHeader(header)), network: 'testnet' });
      expect(answer.result.ergo_tree_header).toMatchObject({ version: header & 7, body_parsed: true });
      expect(answer.warnings).toEqual([]);
    }
    const broken = run({ action: 'address', input: p2s(`12${FEE_BODY}`), network: 'testnet' }).result;
    expect(broken).toMatchObject({ valid: false, invalid_reason: 'ergo_tree' });
    expect(broken.message).toMatch(/size flag/);
  });

  it('reports the header of P2PK and P2SH addresses too', () => {
    const p2pk = run({ action: 'address', input: '3Wx6cHkTaavysMMXSqqvoCL1n273NmcH3auiHymFwTSpKDFzQfW3', network: 'testnet' }).result;
    expect(p2pk.ergo_tree_header).toEqual({ header: '00', version: 0, size_flag: false, constant_segregation: false, body_parsed: true });
  });
});

describe('box tool and ErgoTree versions', () => {
  it('reports the header of a box guarded by a version 2 tree, bytes and JSON, its id over the real bytes', () => {
    const tree = treeWithHeader(0x1a);
    // The box as a version 0 box would be laid out: value, tree, creation height, tokens, registers, tx id, index.
    const version0 = new ErgoBox(BoxValue.from_i64(I64.from_str('1000000')), 100, Contract.new(ErgoTree.from_base16_bytes(FEE_CONTRACT)), TxId.zero(), 0, new Tokens());
    const bytes = Buffer.from(version0.sigma_serialize_bytes()).toString('hex').replace(FEE_CONTRACT, tree);
    const boxId = Buffer.from(blake2b256(Buffer.from(bytes, 'hex'))).toString('hex');
    const fromBytes = run({ action: 'box', input: bytes, encoding: 'hex', network: 'testnet' });
    expect(fromBytes.result).toMatchObject({ ergo_tree: tree, ergo_tree_header: { version: 2, body_parsed: false }, box_id: boxId, size_bytes: bytes.length / 2, value_nanoerg: '1000000' });
    expect(fromBytes.result.address).toBe(p2s(tree));
    expect(fromBytes.warnings.map((warning: { code: string }) => warning.code)).toContain('ergo_tree_version_unparsed');

    const json = { boxId, value: '1000000', ergoTree: tree, creationHeight: 100, assets: [], additionalRegisters: {}, transactionId: '00'.repeat(32), index: 0 };
    const fromJson = run({ action: 'box', input: JSON.stringify(json), network: 'testnet' });
    expect(fromJson.result).toMatchObject({ box_id: boxId, box_id_matches: true, ergo_tree: tree, ergo_tree_header: { version: 2 } });
  });
});

describe('tx tool and ErgoTree versions', () => {
  it('reports every output header, and refuses an output of a newer version by name rather than as malformed', async () => {
    const { FLEET_SIGNED_TRANSACTIONS } = await import('../fixtures/ergo-reference-vectors.ts');
    const json = structuredClone(FLEET_SIGNED_TRANSACTIONS[1].json) as any;
    const answer = run({ action: 'tx', input: JSON.stringify(json), network: 'mainnet' });
    expect(answer.result.outputs.map((output: any) => output.ergo_tree_header.version)).toEqual([0, 0]);
    json.outputs[1].ergoTree = treeWithHeader(0x1a);
    expect(() => runDevTool(devToolRequestSchema.parse({ action: 'tx', input: JSON.stringify(json), network: 'mainnet' }))).toThrow(/Output 1 is guarded by an ErgoTree of version 2/);
  });

  it('refuses the same transaction given as bytes by name too (sigma-rust cannot read it; the outputs are found by their size flag)', async () => {
    const { FLEET_SIGNED_TRANSACTIONS } = await import('../fixtures/ergo-reference-vectors.ts');
    const json = FLEET_SIGNED_TRANSACTIONS[1].json as any;
    const bytes = Buffer.from(Transaction.from_json(JSON.stringify(json)).sigma_serialize_bytes()).toString('hex');
    expect(bytes.split(FEE_CONTRACT)).toHaveLength(2);
    expect(run({ action: 'tx', input: bytes, encoding: 'hex', network: 'mainnet' }).result.outputs[1].ergo_tree).toBe(FEE_CONTRACT);
    const newer = bytes.replace(FEE_CONTRACT, treeWithHeader(0x1a));
    expect(() => runDevTool(devToolRequestSchema.parse({ action: 'tx', input: newer, encoding: 'hex', network: 'mainnet' }))).toThrow(/Output 1 is guarded by an ErgoTree of version 2/);
    // Bytes that no reader can follow keep the generic answer.
    expect(() => runDevTool(devToolRequestSchema.parse({ action: 'tx', input: newer.slice(0, -8) + 'ffffffff', encoding: 'hex', network: 'mainnet' }))).toThrow(/do not follow the Ergo serialization|truncated|bytes/);
  });
});

describe('the output walk (output-trees.ts)', () => {
  // A transaction of no inputs and `count` outputs guarded by a version 0 P2PK tree without the size
  // flag, each found by bisection: value 1, the tree, height 1, no tokens, no registers.
  const P2PK_TREE = '0008cd0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
  const layout = (count: number) => Buffer.from(`000000${vlq(count)}${`01${P2PK_TREE}010000`.repeat(count)}`, 'hex');

  it('finds every unsized version 0 tree, and gives up past its parse budget instead of working without bound', async () => {
    const { outputTreesOf } = await import('../../src/domain/ergo/output-trees.ts');
    expect(outputTreesOf(layout(10))).toEqual(Array(10).fill(P2PK_TREE));
    expect(outputTreesOf(layout(60))).toBeNull();
  });
});
