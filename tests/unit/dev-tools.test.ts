/**
 * The developer tools (spec 2.11) as pure functions, on real vectors only: published BLAKE2b-256
 * answers, the Fleet SDK's address, box and transaction test vectors (real mainnet data), and the
 * sigma-rust bindings' explorer box (see tests/fixtures/ergo-reference-vectors.ts for the sources).
 * Every answer is checked against the published result schema; every refusal names its reason.
 * The catalogue's examples are run through the same code and must produce what they promise.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { FEE_CONTRACT } from '@fleet-sdk/core';
import { base58, blake2b256, hex } from '@fleet-sdk/crypto';
import { Constant } from 'ergo-lib-wasm-nodejs';
import { describe, expect, it } from 'vitest';
import { devToolRequestSchema } from '../../schemas/dev-tools.ts';
import { devToolResultSchema, type DevToolResult } from '../../schemas/dev-tool-results.ts';
import { buildDevToolsCatalogue, receiptExampleBundle } from '../../src/descriptors/developer.ts';
import { runDevTool } from '../../src/domain/dev-tools.ts';
import { hashInput } from '../../src/domain/ergo/hash.ts';
import { InspectionInputError } from '../../src/domain/ergo/inspection-error.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import { toJsonSchemaDocument } from '../../src/catalogue/published.ts';
import { routeById } from '../../src/routes/table.ts';
import {
  BLAKE2B256_VECTORS,
  FLEET_ADDRESSES,
  FLEET_BOXES,
  FLEET_SIGNED_TRANSACTIONS,
  FLEET_UNSIGNED_TRANSACTION,
  SIGMA_RUST_EXPLORER_BOX,
} from '../fixtures/ergo-reference-vectors.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
const toolRoute = routeById().get('dev-tools');
if (toolRoute?.kind !== 'dynamic' || !toolRoute.responses[200]?.schema) throw new Error('dev-tools route has no 200 schema');
const validatePublished = ajv.compile(toJsonSchemaDocument(toolRoute.responses[200].schema));

/** Runs a tool the way the endpoint does: the request schema first, then the result checked twice. */
function run(body: Record<string, unknown>): any {
  const result: DevToolResult = runDevTool(devToolRequestSchema.parse(body));
  devToolResultSchema.parse(result);
  const plain = JSON.parse(JSON.stringify(result));
  expect(validatePublished(plain), ajv.errorsText(validatePublished.errors)).toBe(true);
  expect(plain).toMatchObject({ ok: true, action: body.action, signs_transactions: false, broadcasts: false });
  return plain;
}

/** The reason an input is refused with; fails the test when it is not refused. */
function refusal(body: Record<string, unknown>): InspectionInputError {
  try {
    runDevTool(devToolRequestSchema.parse(body));
  } catch (error) {
    expect(error).toBeInstanceOf(InspectionInputError);
    const refused = error as InspectionInputError;
    expect(refused.message).not.toMatch(/SigmaParsingError|RuntimeError|unreachable|serde|Scorex|at line/);
    return refused;
  }
  throw new Error(`expected ${JSON.stringify(body).slice(0, 120)} to be refused`);
}

const pointer = (body: unknown, path: string): unknown => path.split('/').slice(1).reduce((node: any, key) => node?.[key], body);

describe('hash', () => {
  it.each(BLAKE2B256_VECTORS)('matches the published BLAKE2b-256 of "$text"', ({ text, digest }) => {
    expect(hashInput(text, 'utf8')).toEqual({ algorithm: 'blake2b256', input_encoding: 'utf8', input_bytes: text.length, digest });
    expect(run({ action: 'hash', input: text }).result.digest).toBe(digest);
    expect(run({ action: 'hash', input: hex.encode(new TextEncoder().encode(text)).toUpperCase(), encoding: 'hex' }).result).toEqual({ algorithm: 'blake2b256', input_encoding: 'hex', input_bytes: text.length, digest });
  });

  it('hashes the empty input, as text and as hex, to the defined digest; other actions still need an input', () => {
    const empty = '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8';
    expect(run({ action: 'hash', input: '' }).result).toEqual({ algorithm: 'blake2b256', input_encoding: 'utf8', input_bytes: 0, digest: empty });
    expect(run({ action: 'hash', input: '', encoding: 'hex' }).result).toEqual({ algorithm: 'blake2b256', input_encoding: 'hex', input_bytes: 0, digest: empty });
    for (const action of ['address', 'box', 'tx', 'receipt'] as const) {
      const parsed = devToolRequestSchema.safeParse({ action, input: '' });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues).toEqual([expect.objectContaining({ path: ['input'], code: 'too_small' })]);
    }
  });

  it('hashes the UTF-8 bytes, not the characters', () => {
    expect(run({ action: 'hash', input: 'é€😀' }).result.input_bytes).toBe(2 + 3 + 4);
  });

  it('hashes a transaction\'s bytes without proofs to its id (the id is blake2b256 of those bytes)', () => {
    expect(run({ action: 'hash', input: FLEET_UNSIGNED_TRANSACTION.hex, encoding: 'hex' }).result.digest).toBe(FLEET_UNSIGNED_TRANSACTION.id);
  });
});

describe('address', () => {
  it('decodes a testnet P2PK address with its public key and tree', () => {
    const answer = run({ action: 'address', input: FLEET_ADDRESSES.testnetP2pk, network: 'testnet' });
    expect(answer.result).toMatchObject({ valid: true, input_form: 'address', network: 'testnet', network_matches: true, address_type: 'P2PK', script_hash: null });
    expect(answer.result.ergo_tree).toBe(`0008cd${answer.result.public_key}`);
    expect(answer.warnings).toEqual([]);
  });

  it('decodes mainnet P2PK and P2SH addresses to the trees Fleet\'s tests give, and warns on the network', () => {
    const p2pk = run({ action: 'address', input: FLEET_ADDRESSES.mainnetP2pk.address, network: 'testnet' });
    expect(p2pk.result).toMatchObject({ valid: true, network: 'mainnet', network_matches: false, ergo_tree: FLEET_ADDRESSES.mainnetP2pk.ergoTree });
    expect(p2pk.warnings.map((warning: { code: string }) => warning.code)).toEqual(['network_mismatch']);
    expect(run({ action: 'address', input: FLEET_ADDRESSES.mainnetPublicKey.address, network: 'mainnet' }).result.public_key).toBe(FLEET_ADDRESSES.mainnetPublicKey.publicKey);
    for (const { address, ergoTree } of FLEET_ADDRESSES.mainnetP2sh) {
      const answer = run({ action: 'address', input: address, network: 'mainnet' });
      expect(answer.result).toMatchObject({ valid: true, address_type: 'P2SH', ergo_tree: ergoTree, public_key: null, script_hash: ergoTree.slice(34, 82) });
      expect(answer.warnings).toEqual([]);
    }
  });

  it('decodes the miner-fee P2S addresses of both networks to the fee contract', () => {
    expect(run({ action: 'address', input: FLEET_ADDRESSES.feeMainnet, network: 'mainnet' }).result).toMatchObject({ valid: true, address_type: 'P2S', network: 'mainnet', ergo_tree: FEE_CONTRACT });
    expect(run({ action: 'address', input: FLEET_ADDRESSES.feeTestnet, network: 'testnet' }).result).toMatchObject({ valid: true, address_type: 'P2S', network: 'testnet', ergo_tree: FEE_CONTRACT });
  });

  it('encodes an ErgoTree given as hex for the requested network', () => {
    expect(run({ action: 'address', input: FEE_CONTRACT, encoding: 'hex', network: 'testnet' }).result).toMatchObject({ valid: true, input_form: 'ergo_tree', address: FLEET_ADDRESSES.feeTestnet, network_matches: true });
    expect(run({ action: 'address', input: FLEET_ADDRESSES.mainnetP2pk.ergoTree, encoding: 'hex', network: 'mainnet' }).result.address).toBe(FLEET_ADDRESSES.mainnetP2pk.address);
    expect(run({ action: 'address', input: FLEET_ADDRESSES.mainnetP2sh[1]!.ergoTree, encoding: 'hex', network: 'mainnet' }).result).toMatchObject({ address: FLEET_ADDRESSES.mainnetP2sh[1]!.address, address_type: 'P2SH' });
  });

  /** An address with a correct checksum around chosen bytes: to reach the rules after the checksum. */
  const withChecksum = (bytes: Uint8Array): string => base58.encode(Uint8Array.from([...bytes, ...blake2b256(bytes).subarray(0, 4)]));
  const testnetKey = hex.decode(run({ action: 'address', input: FLEET_ADDRESSES.testnetP2pk }).result.public_key);

  it.each([
    ['encoding', '3Wx6cHkTaavysMMXSqqvoCL1n273NmcH3auiHymFwTSpKDFzQfW0', /"0"/],
    ['length', FLEET_ADDRESSES.tooShort, /bytes/],
    ['checksum', FLEET_ADDRESSES.testnetP2pkTypo, /checksum/],
    ['prefix', withChecksum(Uint8Array.from([0x21, ...testnetKey])), /0x21 names no Ergo network/],
    ['prefix', withChecksum(Uint8Array.from([0x15, ...testnetKey])), /0x15 names no address type/],
    ['length', withChecksum(Uint8Array.from([0x11, ...testnetKey.subarray(1)])), /33-byte public key/],
    ['public_key', FLEET_ADDRESSES.invalidPublicKey, /secp256k1/],
    ['ergo_tree', withChecksum(Uint8Array.from([0x13, 0x10, 0xff, 0xff])), /ErgoTree/],
  ])('answers valid false with reason %s for %s', (reason, input, message) => {
    const answer = run({ action: 'address', input });
    expect(answer.result).toMatchObject({ valid: false, input_form: 'address', invalid_reason: reason });
    expect(answer.result.message).toMatch(message);
  });

  it('refuses an ErgoTree that does not parse, and a P2PK tree whose key is no curve point', () => {
    expect(run({ action: 'address', input: '0008cd02', encoding: 'hex' }).result).toMatchObject({ valid: false, input_form: 'ergo_tree', invalid_reason: 'ergo_tree' });
    expect(run({ action: 'address', input: `0008cd${'00'.repeat(33)}`, encoding: 'hex' }).result).toMatchObject({ valid: false, invalid_reason: 'public_key' });
  });
});

describe('box', () => {
  it.each(FLEET_BOXES.map((vector) => [vector.json.boxId, vector] as const))('recomputes %s from its bytes and from its JSON', (boxId, vector) => {
    const fromBytes = run({ action: 'box', input: vector.hex, encoding: 'hex', network: 'mainnet' });
    expect(fromBytes.result).toMatchObject({ box_id: boxId, declared_box_id: null, box_id_matches: null, transaction_id: vector.json.transactionId, index: vector.json.index, size_bytes: vector.hex.length / 2 });
    const fromJson = run({ action: 'box', input: JSON.stringify(vector.json), network: 'mainnet' });
    expect(fromJson.result).toMatchObject({ box_id: boxId, declared_box_id: boxId, box_id_matches: true });
    expect(fromJson.result.value_nanoerg).toBe(String(vector.json.value));
    expect(fromJson.result.assets).toEqual(vector.json.assets.map((asset) => ({ token_id: asset.tokenId, amount: String(asset.amount) })));
    expect(fromJson.warnings).toEqual([]);
  });

  it('decodes registers to their ErgoScript type and value', () => {
    const answer = run({ action: 'box', input: FLEET_BOXES[1].hex, encoding: 'hex', network: 'mainnet' });
    expect(answer.result.value_erg).toBe('14.996250000');
    expect(answer.result.registers).toEqual({
      R4: { serialized: '05cab4cd9a03', sigma_type: 'Long', rendered: '430550309' },
      R5: { serialized: '04bc8968', sigma_type: 'Int', rendered: '852574' },
      R6: { serialized: FLEET_BOXES[1].json.additionalRegisters.R6, sigma_type: 'Coll[Byte]', rendered: 'f7ef73c4a4ab91b84bb0a2905108d534114472ec057be3a57a9dfc9b1fbd85c1' },
    });
  });

  it('reads the explorer\'s older JSON form (id, txId, numeric amounts) of the sigma-rust test box', () => {
    const answer = run({ action: 'box', input: JSON.stringify(SIGMA_RUST_EXPLORER_BOX), network: 'mainnet' });
    expect(answer.result).toMatchObject({ box_id: SIGMA_RUST_EXPLORER_BOX.id, box_id_matches: true, address: SIGMA_RUST_EXPLORER_BOX.address, value_nanoerg: '2875858910' });
    // Cross-checked against the other implementation: sigma-rust reads the same constant.
    const constant = Constant.decode_from_base16('05d4d59604');
    expect(answer.result.registers.R5).toEqual({ serialized: '05d4d59604', sigma_type: 'Long', rendered: constant.to_i64().to_str() });
    constant.free();
  });

  it('reports a declared boxId that is not the box\'s id', () => {
    const altered = { ...FLEET_BOXES[0].json, value: '1000001' };
    const answer = run({ action: 'box', input: JSON.stringify(altered), network: 'mainnet' });
    expect(answer.result).toMatchObject({ declared_box_id: FLEET_BOXES[0].json.boxId, box_id_matches: false });
    expect(answer.result.box_id).not.toBe(FLEET_BOXES[0].json.boxId);
    expect(answer.warnings.map((warning: { code: string }) => warning.code)).toEqual(['declared_id_mismatch']);
  });

  const box = FLEET_BOXES[1];
  it.each([
    ['truncated_bytes', box.hex.slice(0, 200), 'hex'],
    ['truncated_bytes', box.hex.slice(0, -2), 'hex'],
    ['trailing_bytes', `${box.hex}00ff`, 'hex'],
    ['box_too_large', 'ab'.repeat(4097), 'hex'],
    ['malformed', `ff${box.hex.slice(2)}`.replace(/^ff[0-9a-f]{8}/, 'ffffffffffffffffffff01'), 'hex'],
    ['not_json', box.hex, 'utf8'],
    ['invalid_box_json', JSON.stringify({ ...box.json, value: '-1' }), 'utf8'],
    ['invalid_box_json', JSON.stringify({ ...box.json, additionalRegisters: { R5: '0400' } }), 'utf8'],
    ['invalid_box_json', JSON.stringify({ ...box.json, transactionId: undefined }), 'utf8'],
    ['invalid_box_json', '[1,2,3]', 'utf8'],
    ['too_deeply_nested', '['.repeat(40) + ']'.repeat(40), 'utf8'],
  ])('refuses with %s', (reason, input, encoding) => {
    expect(refusal({ action: 'box', input, encoding }).reason).toBe(reason);
  });

  it('names the field inside the box JSON that is wrong', () => {
    expect(refusal({ action: 'box', input: JSON.stringify({ ...box.json, creationHeight: 'soon' }) }).message).toMatch(/\/creationHeight/);
    expect(refusal({ action: 'box', input: JSON.stringify({ ...box.json, additionalRegisters: { R5: '0400' } }) }).message).toMatch(/R5 is set but R4 is not/);
  });

  it('keeps amounts beyond 2^53 exact in JSON input', () => {
    const emission = FLEET_SIGNED_TRANSACTIONS[0].json.outputs[0];
    const text = JSON.stringify(emission).replace(`"amount":"11235068000000000"`, '"amount":11235068000000000');
    const answer = run({ action: 'box', input: text, network: 'mainnet' });
    expect(answer.result).toMatchObject({ box_id: emission.boxId, box_id_matches: true });
    expect(answer.result.assets[1].amount).toBe('11235068000000000');
  });
});

describe('tx', () => {
  const [emissionTx, signedTx] = FLEET_SIGNED_TRANSACTIONS;

  it('recomputes a signed mainnet transaction\'s id and output ids from its bytes', () => {
    const answer = run({ action: 'tx', input: signedTx.hex, encoding: 'hex', network: 'mainnet' });
    expect(answer.result).toMatchObject({
      tx_id: signedTx.json.id,
      declared_tx_id: null,
      tx_id_matches: null,
      signed: true,
      inputs: signedTx.json.inputs.map((input) => ({ box_id: input.boxId, has_proof: true, value_nanoerg: null })),
      data_inputs: [],
      total_input_nanoerg: null,
      total_output_nanoerg: '11500000',
      fee_nanoerg: '1500000',
      size_bytes: signedTx.hex.length / 2,
    });
    expect(answer.result.outputs.map((output: { box_id: string }) => output.box_id)).toEqual(signedTx.json.outputs.map((output) => output.boxId));
    expect(answer.result.outputs[0].registers.R4.sigma_type).toBe('GroupElement');
    expect(answer.warnings).toEqual([]);
  });

  it('gets the same id from the node JSON, and confirms the declared ids', () => {
    for (const vector of FLEET_SIGNED_TRANSACTIONS) {
      const fromJson = run({ action: 'tx', input: JSON.stringify(vector.json), network: 'mainnet' });
      expect(fromJson.result).toMatchObject({ tx_id: vector.json.id, declared_tx_id: vector.json.id, tx_id_matches: true });
      expect(fromJson.result.outputs.map((output: { box_id: string }) => output.box_id)).toEqual(vector.json.outputs.map((output) => output.boxId));
      expect(fromJson.result.size_bytes).toBe(vector.hex.length / 2);
    }
  });

  it('reports a proof-free input as unsigned and keeps token amounts beyond 2^53 exact', () => {
    const answer = run({ action: 'tx', input: emissionTx.hex, encoding: 'hex', network: 'mainnet' });
    expect(answer.result).toMatchObject({ tx_id: emissionTx.json.id, signed: false, fee_nanoerg: null, total_output_nanoerg: '8477874000000000' });
    expect(answer.result.outputs[0].assets[1]).toEqual({ token_id: 'd9a2cc8a09abfaed87afacfbb7daee79a6b26f10c6613fc13d3f3953e5521d1a', amount: '11235068000000000' });
    expect(answer.warnings.map((warning: { code: string }) => warning.code)).toEqual(['unsigned_transaction']);
  });

  it('reads an unsigned transaction serialized with empty proofs, data input included', () => {
    const answer = run({ action: 'tx', input: FLEET_UNSIGNED_TRANSACTION.hex, encoding: 'hex', network: 'mainnet' });
    expect(answer.result).toMatchObject({
      tx_id: FLEET_UNSIGNED_TRANSACTION.id,
      signed: false,
      inputs: FLEET_UNSIGNED_TRANSACTION.inputBoxIds.map((boxId) => ({ box_id: boxId, has_proof: false })),
      data_inputs: [{ box_id: FLEET_UNSIGNED_TRANSACTION.dataInputBoxId }],
      fee_nanoerg: '5000000',
    });
  });

  it('reads the explorer form (bare proof hex, input values) and the EIP-12 unsigned form', () => {
    const explorer = {
      ...signedTx.json,
      inputs: signedTx.json.inputs.map((input, index) => ({ boxId: input.boxId, value: ['9000000', '2500000'][index], spendingProof: input.spendingProof.proofBytes, extension: input.spendingProof.extension })),
    };
    const answer = run({ action: 'tx', input: JSON.stringify(explorer), network: 'mainnet' });
    expect(answer.result).toMatchObject({ tx_id: signedTx.json.id, tx_id_matches: true, total_input_nanoerg: '11500000', signed: true });
    expect(answer.result.inputs.map((input: { value_nanoerg: string }) => input.value_nanoerg)).toEqual(['9000000', '2500000']);

    const { id: _id, ...rest } = signedTx.json;
    const eip12 = { ...rest, inputs: signedTx.json.inputs.map((input) => ({ boxId: input.boxId, extension: input.spendingProof.extension })) };
    const unsigned = run({ action: 'tx', input: JSON.stringify(eip12), network: 'mainnet' });
    expect(unsigned.result).toMatchObject({ tx_id: signedTx.json.id, declared_tx_id: null, signed: false });
  });

  it('warns when the declared id, an output id or the value balance does not hold', () => {
    const tampered = { ...signedTx.json, outputs: signedTx.json.outputs.map((output, index) => (index === 1 ? { ...output, value: '1400000' } : output)) };
    const answer = run({ action: 'tx', input: JSON.stringify({ ...tampered, inputs: tampered.inputs.map((input) => ({ ...input, value: '5750000' })) }), network: 'mainnet' });
    expect(answer.result.tx_id_matches).toBe(false);
    // The id, both output ids (they depend on the id) and both outputs' transactionId differ.
    expect(answer.warnings.map((warning: { code: string }) => warning.code).sort()).toEqual([...Array(5).fill('declared_id_mismatch'), 'value_not_preserved']);
  });

  it.each([
    ['truncated_bytes', signedTx.hex.slice(0, 300), 'hex'],
    ['trailing_bytes', `${signedTx.hex}00`, 'hex'],
    ['not_json', '{"inputs":', 'utf8'],
    ['invalid_transaction_json', JSON.stringify({ ...signedTx.json, inputs: [] }), 'utf8'],
    ['invalid_transaction_json', JSON.stringify({ ...signedTx.json, outputs: [{ ...signedTx.json.outputs[0], ergoTree: 'xyz' }] }), 'utf8'],
  ])('refuses with %s', (reason, input, encoding) => {
    expect(refusal({ action: 'tx', input, encoding }).reason).toBe(reason);
  });

  it('survives a register that makes sigma-rust panic, and keeps working afterwards', () => {
    // Observed while fuzzing: a register byte that is no constant hits a Rust panic in the WASM build.
    const broken = { ...signedTx.json, outputs: signedTx.json.outputs.map((output, index) => (index === 1 ? { ...output, additionalRegisters: { R4: 'ff' } } : output)) };
    expect(['malformed', 'malformed_register']).toContain(refusal({ action: 'tx', input: JSON.stringify(broken) }).reason);
    expect(run({ action: 'tx', input: signedTx.hex, encoding: 'hex', network: 'mainnet' }).result.tx_id).toBe(signedTx.json.id);
  });

  it('never answers a mutated transaction with a parser\'s text or a crash', () => {
    const bytes = hex.decode(signedTx.hex);
    let seed = 7;
    const next = (limit: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % limit;
    for (let round = 0; round < 300; round++) {
      const mutated = bytes.slice(0, next(3) === 0 ? next(bytes.length) + 1 : bytes.length);
      for (let flips = next(4) + 1; flips > 0; flips--) mutated[next(mutated.length)] = next(256);
      try {
        run({ action: 'tx', input: hex.encode(mutated), encoding: 'hex', network: 'mainnet' });
      } catch (error) {
        expect(error).toBeInstanceOf(InspectionInputError);
        expect((error as Error).message).not.toMatch(/SigmaParsingError|RuntimeError|Scorex|unreachable/);
      }
    }
  });
});

describe('receipt', () => {
  const bundle = receiptExampleBundle();
  const check = (value: unknown) => run({ action: 'receipt', input: JSON.stringify(value) });
  const failed = (answer: any) => answer.result.failed_checks;

  it('verifies a bundle built by the paid-turn code, every check named', () => {
    const answer = check(bundle);
    expect(answer.result).toMatchObject({ verified: true, failed_checks: [], receipt_id: bundle.receiptId, computed_receipt_id: bundle.receiptId, receipt_id_matches: true, chain: 'sandbox' });
    expect(answer.result.checks.map((entry: { id: string }) => entry.id)).toEqual([
      'schema', 'receipt_id', 'task_hash_agrees', 'quote_agrees', 'note_box_id_agrees', 'settlement_tx_id_agrees', 'chain_agrees',
      'registers_decode', 'note_binding', 'value_covers_price', 'confirmations', 'verification_checks_passed',
    ]);
    expect(answer.warnings.map((warning: { code: string }) => warning.code)).toEqual(['sandbox_chain']);
  });

  it('computes the receipt id over the bundle as given, with the shared function', () => {
    const { receiptId, ...withoutId } = bundle;
    expect(computeReceiptId(withoutId)).toBe(receiptId);
  });

  /** Alters one part and restores the receipt id, so only the named agreement can fail. */
  const resealed = (edit: (copy: any) => void) => {
    const copy = JSON.parse(JSON.stringify(bundle));
    edit(copy);
    delete copy.receiptId;
    return { receiptId: computeReceiptId(copy), ...copy };
  };

  it.each([
    ['receipt_id', (copy: any) => (copy.settlement_receipt.confirmations += 1), false],
    ['task_hash_agrees', (copy: any) => (copy.agreement.taskHash = 'ab'.repeat(32)), true],
    ['quote_agrees', (copy: any) => (copy.agreement.issuedHeight -= 1), true],
    ['note_box_id_agrees', (copy: any) => (copy.verification_receipt.noteBoxId = 'cd'.repeat(32)), true],
    ['settlement_tx_id_agrees', (copy: any) => (copy.settlement_receipt.settlementTxId = 'ef'.repeat(32)), true],
    ['chain_agrees', (copy: any) => (copy.verification_receipt.chain.source = 'testnet'), true],
    ['confirmations', (copy: any) => (copy.agreement.minConfirmations = copy.quote_evidence.quote.minConfirmations = copy.settlement_receipt.confirmations + 1), true],
    ['value_covers_price', (copy: any) => (copy.settlement_receipt.valueNanoErg = '9999999'), true],
    ['verification_checks_passed', (copy: any) => (copy.verification_receipt.checks[3].ok = false), true],
  ])('says exactly that %s failed', (id, edit, reseal) => {
    let edited: unknown;
    if (reseal) edited = resealed(edit as (copy: any) => void);
    else {
      edited = JSON.parse(JSON.stringify(bundle));
      (edit as (copy: any) => void)(edited);
    }
    const answer = check(edited);
    expect(answer.result.verified).toBe(false);
    expect(failed(answer)).toEqual([id]);
  });

  it('decodes the Note registers from their serialized form, not from the stated values', () => {
    const answer = check(resealed((copy) => (copy.settlement_receipt.registers.R6.serializedValue = `0e20${'00'.repeat(32)}`)));
    expect(failed(answer)).toEqual(['registers_decode']);
    expect(answer.result.checks.find((entry: { id: string }) => entry.id === 'registers_decode').detail).toMatch(/R6 decodes to 0{64}/);
    const bound = check(resealed((copy) => {
      copy.settlement_receipt.registers.R4.value = 'aa'.repeat(32);
      copy.settlement_receipt.registers.R4.serializedValue = `0e20${'aa'.repeat(32)}`;
    }));
    expect(failed(bound)).toEqual(['note_binding']);
  });

  it('checks only the shape and the id of something that is not a bundle, and says so', () => {
    const answer = check({ receiptId: 'ab'.repeat(32), hello: 'world' });
    expect(answer.result).toMatchObject({ verified: false, failed_checks: ['schema', 'receipt_id'], receipt_id_matches: false });
    expect(answer.warnings.map((warning: { code: string }) => warning.code)).toEqual(['checks_skipped']);
  });

  it.each([
    ['receipt_id_not_bundle', bundle.receiptId],
    ['not_json', 'receipt please'],
    ['not_a_bundle', '[1,2]'],
  ])('refuses with %s', (reason, input) => {
    expect(refusal({ action: 'receipt', input }).reason).toBe(reason);
  });
});

describe('catalogue examples (GET /api/dev/tools)', () => {
  const catalogue = buildDevToolsCatalogue();

  it.each(catalogue.actions.map((entry) => [entry.action, entry] as const))('%s: the example request answers what it promises', (_action, entry) => {
    const answer = run(entry.example_request);
    for (const [path, expected] of Object.entries(entry.example_expected)) expect(pointer(answer, path), path).toEqual(expected);
  });
});
