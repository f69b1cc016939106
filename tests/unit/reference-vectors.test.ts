/**
 * The corpus of independent vectors under tests/vectors, each copied from a reference
 * implementation's own test suite (the Ergo node, sigmastate-interpreter, sigma-rust, Fleet SDK)
 * and naming its repository, path and commit, run through the developer tools exactly as the HTTP
 * route, the MCP tools and the CLI run them (runDevTool). A vector the tools answer otherwise than
 * its source asserts fails here, by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { devToolRequestSchema } from '../../schemas/dev-tools.ts';
import { devToolResultSchema } from '../../schemas/dev-tool-results.ts';
import { runDevTool } from '../../src/domain/dev-tools.ts';
import { outputTreesOf } from '../../src/domain/ergo/output-trees.ts';
import { stringifyExact } from '../../src/sandbox/server.ts';
import { parseJsonExact } from '../../src/lib/exact-json.ts';

const VECTORS_DIR = new URL('../vectors/', import.meta.url).pathname;

const sourceSchema = z.object({
  repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  path: z.string().min(1),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  test: z.string().optional(),
});
const hex = z.string().regex(/^(?:[0-9a-f]{2})*$/);
const json = z.record(z.string(), z.unknown());
const id = z.string().regex(/^[0-9a-f]{64}$/);

const addressVector = z.object({
  address: z.string().min(1),
  network: z.enum(['mainnet', 'testnet']),
  type: z.enum(['p2pk', 'p2sh', 'p2s']).optional(),
  valid: z.boolean(),
  ergo_tree: hex.optional(),
  public_key: hex.optional(),
  invalid_reason: z.string().optional(),
  source: sourceSchema,
});
const hashVector = z
  .object({ input_hex: hex.optional(), input_utf8: z.string().optional(), blake2b256: id.optional(), source: sourceSchema })
  .refine((vector) => (vector.input_hex === undefined) !== (vector.input_utf8 === undefined), 'exactly one of input_hex and input_utf8');
const boxVector = z
  .object({ bytes: hex.optional(), box_id: id.optional(), json: json.optional(), source: sourceSchema })
  .refine((vector) => vector.bytes !== undefined || vector.json !== undefined, 'bytes or json');
const transactionVector = z
  .object({
    bytes: hex.optional(),
    json: json.optional(),
    tx_id: id,
    tx_id_origin: z.enum(['asserted by the test', 'declared in the JSON']),
    /** The id the source's test asserts, when the vector's JSON declares another. */
    asserted_tx_id: id.optional(),
    /** The id the source's JSON declares, when its test asserts another. */
    declared_json_id: id.optional(),
    output_box_ids: z.array(id).optional(),
    json_form: z.enum(['node', 'explorer', 'eip12']).optional(),
    signed: z.boolean().optional(),
    has_data_inputs: z.boolean().optional(),
    max_extension_entries: z.number().int().nonnegative().optional(),
    source: sourceSchema,
  })
  .refine((vector) => vector.bytes !== undefined || vector.json !== undefined, 'bytes or json')
  .refine((vector) => (vector.json === undefined) === (vector.json_form === undefined), 'json_form names the form of the json');

function load<T extends z.ZodType>(file: string, schema: T): Array<z.output<T>> {
  // Exact: a value beyond 2^53 keeps every digit, and goes back out as the same digits.
  const document = parseJsonExact(readFileSync(join(VECTORS_DIR, file), 'utf8')) as { vectors: unknown[] };
  return document.vectors.map((vector, index) => {
    const parsed = schema.safeParse(vector);
    if (!parsed.success) throw new Error(`${file} vector ${index}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
    return parsed.data;
  });
}

function tool(action: string, input: string, encoding: 'utf8' | 'hex', network: 'mainnet' | 'testnet' = 'mainnet'): any {
  return JSON.parse(JSON.stringify(devToolResultSchema.parse(runDevTool(devToolRequestSchema.parse({ action, input, encoding, network })))));
}

const label = (vector: { source: z.infer<typeof sourceSchema> }, what: string) => `${what} (${vector.source.repository} ${vector.source.path}${vector.source.test ? `, ${vector.source.test}` : ''})`;
const files = readdirSync(VECTORS_DIR);

const INVALID_REASONS: Record<string, string> = { bad_checksum: 'checksum', invalid_public_key: 'public_key', too_short: 'length', wrong_content_length: 'length' };

describe('reference vectors: every file names its sources', () => {
  it('holds the four kinds, each vector with repository, path and a 40-hex commit', () => {
    expect(files.filter((file) => file.endsWith('.json')).toSorted()).toEqual(['addresses.json', 'boxes.json', 'hashes.json', 'transactions.json']);
  });
});

describe('reference vectors: addresses', () => {
  const vectors = load('addresses.json', addressVector);
  it.each(vectors.map((vector) => [label(vector, vector.address.slice(0, 16)), vector] as const))('%s', (_name, vector) => {
    const answer = tool('address', vector.address, 'utf8', vector.network).result;
    expect(answer.valid).toBe(vector.valid);
    if (!vector.valid) {
      const reason = vector.invalid_reason && INVALID_REASONS[vector.invalid_reason];
      if (reason) expect(answer.invalid_reason).toBe(reason);
      return;
    }
    expect(answer.network).toBe(vector.network);
    expect(answer.network_matches).toBe(true);
    if (vector.type) expect(answer.address_type).toBe(vector.type.toUpperCase());
    // Asked on the other network, the same address is still valid, said to be of its own network, with a warning.
    const other = vector.network === 'mainnet' ? 'testnet' : 'mainnet';
    const crossed = tool('address', vector.address, 'utf8', other);
    expect(crossed.result).toMatchObject({ valid: true, network: vector.network, network_matches: false });
    expect(crossed.warnings.map((warning: { code: string }) => warning.code)).toContain('network_mismatch');
    if (vector.ergo_tree) expect(answer.ergo_tree).toBe(vector.ergo_tree);
    if (vector.public_key) expect(answer.public_key).toBe(vector.public_key);
  });
});

describe('reference vectors: hashes', () => {
  const vectors = load('hashes.json', hashVector).filter((vector) => vector.blake2b256 !== undefined);
  it.each(vectors.map((vector) => [label(vector, JSON.stringify(vector.input_utf8 ?? vector.input_hex).slice(0, 24)), vector] as const))('%s', (_name, vector) => {
    const answer = vector.input_hex !== undefined ? tool('hash', vector.input_hex, 'hex') : tool('hash', vector.input_utf8!, 'utf8');
    expect(answer.result.digest).toBe(vector.blake2b256);
  });
});

describe('reference vectors: boxes', () => {
  const vectors = load('boxes.json', boxVector);
  it.each(vectors.map((vector) => [label(vector, vector.box_id ?? 'box'), vector] as const))('%s', (_name, vector) => {
    const expected = vector.box_id ?? (vector.json?.boxId as string | undefined);
    if (vector.bytes) expect(tool('box', vector.bytes, 'hex').result.box_id).toBe(expected);
    if (vector.json) {
      const answer = tool('box', stringifyExact(vector.json), 'utf8').result;
      expect(answer.box_id).toBe(expected);
    }
  });
});

/** A register constant whose type Fleet's reader does not implement (this vector's tuple: Fleet answers "Not implemented"): the walk gives up on it, and sigma-rust's own answer stands. */
const WALK_CANNOT_READ = new Set(['b5fd96c9f8c1ff436d609a225a12377c6873b890a145fc05f4099845b89315e5']);

describe('reference vectors: transactions', () => {
  const vectors = load('transactions.json', transactionVector);
  it('covers signed and unsigned transactions as bytes and in node, explorer and EIP-12 JSON, with data inputs and context extensions', () => {
    expect(new Set(vectors.flatMap((vector) => (vector.json_form ? [vector.json_form] : [])))).toEqual(new Set(['node', 'explorer', 'eip12']));
    expect(new Set(vectors.filter((vector) => vector.bytes).map((vector) => vector.signed))).toEqual(new Set([true, false]));
    expect(vectors.some((vector) => vector.has_data_inputs)).toBe(true);
    expect(Math.max(...vectors.map((vector) => vector.max_extension_entries ?? 0))).toBeGreaterThan(4);
  });
  it.each(vectors.map((vector) => [label(vector, vector.tx_id), vector] as const))('%s', (_name, vector) => {
    // What the reference asserts is the node's id; an id a JSON declares beside it is the bytes' as given.
    const nodeId = vector.asserted_tx_id ?? vector.tx_id;
    const givenOrderId = vector.declared_json_id ?? (vector.tx_id_origin === 'declared in the JSON' ? vector.tx_id : nodeId);
    for (const [input, encoding] of [
      [vector.bytes, 'hex'],
      [vector.json && stringifyExact(vector.json), 'utf8'],
    ] as const) {
      if (input === undefined) continue;
      const answer = tool('tx', input, encoding);
      expect(answer.result.tx_id).toBe(nodeId);
      expect(answer.result.tx_id_given_order).toBe(givenOrderId === nodeId ? null : givenOrderId);
      if (givenOrderId !== nodeId) expect(answer.warnings.map((warning: { code: string }) => warning.code)).toContain('extension_order_differs');
      // Output ids the source lists hang off the id it declares.
      const listed = answer.result.outputs.map((output: { box_id: string; box_id_given_order: string | null }) => output.box_id_given_order ?? output.box_id);
      if (vector.output_box_ids) expect(listed).toEqual(vector.output_box_ids);
      // The walk that names an output of a newer tree version finds every output's tree where sigma-rust does.
      if (encoding === 'hex') {
        const trees = answer.result.outputs.map((output: { ergo_tree: string }) => output.ergo_tree);
        expect(outputTreesOf(Buffer.from(input, 'hex'))).toEqual(WALK_CANNOT_READ.has(nodeId) ? null : trees);
      }
    }
  });
});
