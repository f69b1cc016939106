/**
 * POST /api/dev/tools over HTTP against the built server: every example the catalogue (GET
 * /api/dev/tools) publishes is posted as is and must answer what it promises, and every 400 path
 * answers problem+json naming the field and the reason in our words, never a parser's.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOOL_MAX_INPUT_CHARACTERS } from '../../schemas/dev-tools.ts';
import { FLEET_BOXES, FLEET_SIGNED_TRANSACTIONS } from '../fixtures/ergo-reference-vectors.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';

let server: RunningServer;
beforeAll(async () => {
  // The tools read no store: it points at a closed loopback port, so no embedded database is
  // created (seconds of CPU at start) or shared with another suite's server.
  server = await startBuiltServer({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://no-store@127.0.0.1:1/none', STORE_CONNECT_TIMEOUT_MS: '200' });
});
afterAll(async () => server?.stop());

async function post(body: unknown, raw?: string) {
  const response = await request(`${server.url}/api/dev/tools`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  return { status: response.statusCode, contentType: String(response.headers['content-type']), body: (await response.body.json()) as any };
}

const pointer = (body: unknown, path: string): unknown => path.split('/').slice(1).reduce((node: any, key) => node?.[key], body);

describe('GET /api/dev/tools examples, posted as published', () => {
  it('every example answers 200 with the values it lists', async () => {
    const catalogue = await request(`${server.url}/api/dev/tools`);
    expect(catalogue.statusCode).toBe(200);
    const { actions, endpoint } = (await catalogue.body.json()) as { endpoint: string; actions: Array<{ action: string; example_request: unknown; example_expected: Record<string, unknown> }> };
    expect(new URL(endpoint).pathname).toBe('/api/dev/tools');
    expect(actions.map((entry) => entry.action)).toEqual(['hash', 'address', 'box', 'tx', 'receipt']);
    for (const entry of actions) {
      const answer = await post(entry.example_request);
      expect(answer.status, `${entry.action}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
      expect(answer.contentType).toMatch(/^application\/json/);
      for (const [path, expected] of Object.entries(entry.example_expected)) expect(pointer(answer.body, path), `${entry.action} ${path}`).toEqual(expected);
    }
  });
});

describe('400 paths', () => {
  const box = FLEET_BOXES[1];
  const tx = FLEET_SIGNED_TRANSACTIONS[1];

  it.each([
    ['an unsupported action', { action: 'sign', input: 'x' }, 'invalid_request', '/action', 'invalid_value'],
    ['a missing input', { action: 'hash' }, 'invalid_request', '/input', 'invalid_type'],
    ['an empty input to anything but hash', { action: 'box', input: '' }, 'invalid_request', '/input', 'too_small'],
    ['an extra key', { action: 'hash', input: 'x', broadcast: true }, 'invalid_request', '/broadcast', 'unrecognized_keys'],
    ['an unknown network', { action: 'address', input: 'x', network: 'devnet' }, 'invalid_request', '/network', 'invalid_value'],
    ['odd-length hex', { action: 'hash', input: 'abc', encoding: 'hex' }, 'invalid_request', '/input', 'custom'],
    ['hex with a 0x prefix', { action: 'tx', input: `0x${tx.hex}`, encoding: 'hex' }, 'invalid_request', '/input', 'custom'],
    ['an encoding the action does not take', { action: 'receipt', input: 'abcd', encoding: 'hex' }, 'invalid_request', '/encoding', 'custom'],
    ['an input over the limit', { action: 'hash', input: 'x'.repeat(DEV_TOOL_MAX_INPUT_CHARACTERS + 1) }, 'invalid_request', '/input', 'too_big'],
    ['truncated box bytes', { action: 'box', input: box.hex.slice(0, 120), encoding: 'hex' }, 'invalid_input', '/input', 'truncated_bytes'],
    ['box bytes with trailing bytes', { action: 'box', input: `${box.hex}0000`, encoding: 'hex' }, 'invalid_input', '/input', 'trailing_bytes'],
    ['box bytes over 4096 bytes', { action: 'box', input: '00'.repeat(4097), encoding: 'hex' }, 'invalid_input', '/input', 'box_too_large'],
    ['truncated transaction bytes', { action: 'tx', input: tx.hex.slice(0, tx.hex.length - 10), encoding: 'hex' }, 'invalid_input', '/input', 'truncated_bytes'],
    ['transaction bytes sent as utf8', { action: 'tx', input: tx.hex }, 'invalid_input', '/input', 'not_json'],
    ['JSON that is not a box', { action: 'box', input: '{"value":"1"}' }, 'invalid_input', '/input', 'invalid_box_json'],
    ['JSON that is not a transaction', { action: 'tx', input: JSON.stringify({ ...tx.json, outputs: [] }) }, 'invalid_input', '/input', 'invalid_transaction_json'],
    ['a receipt id instead of a bundle', { action: 'receipt', input: 'ab'.repeat(32) }, 'invalid_input', '/input', 'receipt_id_not_bundle'],
  ])('answers %s with a problem naming the field', async (_what, body, code, path, fieldCode) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ status: 400, code });
    expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path, code: fieldCode })]));
    expect(JSON.stringify(answer.body)).not.toMatch(/SigmaParsingError|RuntimeError|Scorex|unreachable|serde|at line \d/);
  });

  it('hashes the empty input to the defined blake2b256 digest, as text and as hex', async () => {
    for (const encoding of ['utf8', 'hex']) {
      const answer = await post({ action: 'hash', input: '', encoding });
      expect(answer.status).toBe(200);
      expect(answer.body.result).toEqual({ algorithm: 'blake2b256', input_encoding: encoding, input_bytes: 0, digest: '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8' });
    }
  });

  it('answers a body that is not JSON, and an oversize body, with the shared 4xx', async () => {
    expect((await post(undefined, '{"action":"hash",')).body).toMatchObject({ status: 400, code: 'invalid_json' });
    const huge = await request(`${server.url}/api/dev/tools`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'hash', input: 'x'.repeat(70_000) }) }).catch(() => undefined);
    if (huge) expect(huge.statusCode).toBe(413);
  });

  it('reports an invalid address as a finding (200), with the exact reason', async () => {
    const answer = await post({ action: 'address', input: '3Wx6cHkTaAvysMMXSqqvoCL1n273NmcH3auiHymFwTSpKDFzQfW3' });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ valid: false, invalid_reason: 'checksum' });
  });
});
