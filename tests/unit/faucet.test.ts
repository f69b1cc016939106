/**
 * The faucet's proof of work, its single-use memory, the solver behind `npm run faucet:solve`, and
 * the payout flow's order of checks run in-process against fakes of the limiter and the backend.
 * (Over HTTP, against the built server and a real backend on loopback: tests/integration/faucet.)
 */
import { ErgoAddress, Network } from '@fleet-sdk/core';
import { blake2b256, hex, utf8 } from '@fleet-sdk/crypto';
import { describe, expect, it } from 'vitest';
import { faucetPayoutSchema } from '../../schemas/faucet.ts';
import { solveFaucetChallenge } from '../../src/cli/faucet-solve.ts';
import { loadFaucetConfig, FAUCET_EPOCH_SECONDS, type FaucetConfig } from '../../src/config/faucet.ts';
import { loadRateLimitConfig } from '../../src/config/rate-limit.ts';
import { decodeAddress } from '../../src/domain/ergo/address.ts';
import { payeeKey } from '../../src/domain/faucet/payee-key.ts';
import { challengePreimage, epochAt, leadingZeroBits, solveChallenge, verifyChallengeToken } from '../../src/domain/faucet/proof-of-work.ts';
import type { ApiRequest } from '../../src/lib/api.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import { createFaucetPayoutHandler, type FaucetDeps } from '../../src/routes/faucet/payout.ts';
import { FaucetBackendError, type FaucetBackend } from '../../src/services/faucet/backend-client.ts';
import type { RateLimitDecision, RateLimiter } from '../../src/domain/ports.ts';
import { createRateLimiter } from '../../src/services/rate-limit/limiter.ts';
import { FLEET_ADDRESSES } from '../fixtures/ergo-reference-vectors.ts';

const ADDRESS = FLEET_ADDRESSES.testnetP2pk;
const NOW = new Date('2026-11-23T12:00:00Z');
const EPOCH = epochAt(NOW, FAUCET_EPOCH_SECONDS);
const params = { bits: 10, epochSeconds: FAUCET_EPOCH_SECONDS };
/** What the per-address limit counts for ADDRESS: its P2PK tree, hashed. */
const PAYEE = hex.encode(blake2b256(hex.decode(ErgoAddress.decode(ADDRESS).ergoTree)));

/** secp256k1's generator G and 2G, and trees of one `sigmaProp(proveDlog(G))` written many ways. */
const G = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
const TWO_G = '02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5';
const ONE_KEY_TREES: Array<[string, string]> = [
  ['the P2PK tree', `0008cd${G}`],
  ['the key as a segregated constant', `100108cd${G}7300`],
  ['a segregated constant beside an unused one', `10020400${'08cd' + G}7301`],
  ['version 0 with the size flag', `082308cd${G}`],
  ['version 1', `092308cd${G}`],
  ['version 1, segregated', `19260108cd${G}7300`],
  ['version 2', `0a2308cd${G}`],
  ['version 3, segregated', `1b260108cd${G}7300`],
  ['CreateProveDlog of an inline group element', `00cd07${G}`],
  ['CreateProveDlog of a segregated group element', `100107${G}cd7300`],
  ['CreateProveDlog under version 1, segregated', `19260107${G}cd7300`],
];
const treeKey = (tree: string) => {
  const check = decodeAddress(ErgoAddress.fromErgoTree(tree, Network.Testnet).encode(Network.Testnet));
  if (!check.valid) throw new Error(`${tree} is not an address: ${check.message}`);
  return payeeKey(check.ergoTree);
};

describe('payee key (what the per-address limit counts)', () => {
  const keyOfG = hex.encode(blake2b256(hex.decode(`0008cd${G}`)));

  it.each(ONE_KEY_TREES)('reduces %s to the P2PK tree of its key', (_form, tree) => {
    expect(treeKey(tree)).toBe(keyOfG);
  });

  it('tells apart other keys, scripts that are more than one key, and different scripts', () => {
    const others = [
      `100108cd${TWO_G}7300`,
      // sigmaProp(proveDlog(G)) && HEIGHT > 0: G alone cannot spend it at height 0.
      `10020400${'08cd' + G}ea02d191a373007301`,
      // HEIGHT > 0 and HEIGHT > 1: no key at all, two conditions.
      '10010400d191a37300',
      '10010402d191a37300',
    ];
    const keys = others.map(treeKey);
    expect(new Set([keyOfG, ...keys]).size).toBe(others.length + 1);
  });
});

describe('proof of work', () => {
  it('counts leading zero bits across bytes', () => {
    expect(leadingZeroBits(Uint8Array.from([0x80]))).toBe(0);
    expect(leadingZeroBits(Uint8Array.from([0x01, 0xff]))).toBe(7);
    expect(leadingZeroBits(Uint8Array.from([0x00, 0x00, 0x10]))).toBe(19);
    expect(leadingZeroBits(new Uint8Array(32))).toBe(256);
  });

  it('accepts a solved token for its epoch and the next, bound to the address, with its expiry', () => {
    const token = solveChallenge(ADDRESS, EPOCH, params.bits)!;
    const [, nonce] = token.split(':');
    const digest = blake2b256(utf8.decode(challengePreimage(ADDRESS, EPOCH, nonce!)));
    expect(leadingZeroBits(digest)).toBeGreaterThanOrEqual(params.bits);
    const verdict = verifyChallengeToken(ADDRESS, token, params, NOW);
    expect(verdict).toEqual({ ok: true, epoch: EPOCH, nonce, digest: hex.encode(digest), expiresAt: new Date((EPOCH + 2) * FAUCET_EPOCH_SECONDS * 1000) });
    expect(verifyChallengeToken(ADDRESS, token, params, new Date(NOW.getTime() + FAUCET_EPOCH_SECONDS * 1000)).ok).toBe(true);
  });

  it.each([
    ['missing', undefined, NOW],
    ['malformed', 'abc', NOW],
    ['expired', 'solved', new Date(NOW.getTime() + 2 * FAUCET_EPOCH_SECONDS * 1000)],
    ['not_yet_valid', 'solved', new Date(NOW.getTime() - FAUCET_EPOCH_SECONDS * 1000)],
  ])('refuses a token that is %s', (reason, token, at) => {
    const given = token === 'solved' ? solveChallenge(ADDRESS, EPOCH, params.bits) : token;
    expect(verifyChallengeToken(ADDRESS, given, params, at)).toMatchObject({ ok: false, reason });
  });

  it('refuses a token solved for another address or with too little work', () => {
    const other = FLEET_ADDRESSES.feeTestnet;
    const forOther = solveChallenge(other, EPOCH, 16)!;
    expect(verifyChallengeToken(ADDRESS, forOther, { ...params, bits: 16 }, NOW)).toMatchObject({ ok: false, reason: 'insufficient_work' });
    const weak = Array.from({ length: 5000 }, (_, index) => `${EPOCH}:${index.toString(36)}`).find(
      (candidate) => leadingZeroBits(blake2b256(utf8.decode(`${ADDRESS}:${candidate}`))) === 0,
    )!;
    expect(verifyChallengeToken(ADDRESS, weak, params, NOW)).toMatchObject({ ok: false, reason: 'insufficient_work' });
    expect(verifyChallengeToken(ADDRESS, weak, { ...params, bits: 0 }, NOW).ok).toBe(true);
  });

  it('solves through the CLI function, refusing what the faucet would refuse', () => {
    const solved = solveFaucetChallenge(ADDRESS, { bits: 8, now: NOW });
    expect(solved.epoch).toBe(EPOCH);
    expect(verifyChallengeToken(ADDRESS, solved.challengeToken, { bits: 8, epochSeconds: FAUCET_EPOCH_SECONDS }, NOW).ok).toBe(true);
    expect(() => solveFaucetChallenge(FLEET_ADDRESSES.mainnetP2pk.address, { bits: 8 })).toThrow(/mainnet address/);
    expect(() => solveFaucetChallenge(FLEET_ADDRESSES.testnetP2pkTypo, { bits: 8 })).toThrow(/checksum/);
  });
});

describe('configuration', () => {
  it('bounds the backend timeout and names the variable when it is wrong', () => {
    expect(loadFaucetConfig({}).backendTimeoutMs).toBe(10_000);
    expect(loadFaucetConfig({ FAUCET_BACKEND_TIMEOUT_MS: '600' }).backendTimeoutMs).toBe(600);
    for (const wrong of ['50', '60001', '1.5', 'soon']) expect(() => loadFaucetConfig({ FAUCET_BACKEND_TIMEOUT_MS: wrong })).toThrow(/FAUCET_BACKEND_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000/);
  });
});

describe('payout flow (in-process, fake limiter and backend)', () => {
  const allowed: RateLimitDecision = { allowed: true, limit: 1, windowSeconds: 86_400, remaining: 0, retryAfterSeconds: 0, resetSeconds: 86_400 };
  const config = (overrides: Record<string, string> = {}): FaucetConfig =>
    loadFaucetConfig({ FAUCET_ENABLED: 'true', FAUCET_BACKEND_URL: 'http://127.0.0.1:9/payout', FAUCET_POW_BITS: '8', ...overrides });

  function setup(options: { config?: FaucetConfig; limiter?: (bucket: string) => RateLimitDecision; backend?: FaucetBackend['requestPayout'] } = {}) {
    const calls: string[] = [];
    // The real in-memory limiter (spent tokens are one use per token there), recorded, with a limit's answer overridable.
    const real = createRateLimiter(loadRateLimitConfig({}));
    const limiter: RateLimiter = {
      mode: () => 'memory',
      consume: async (bucket, key) => {
        calls.push(`limit ${bucket} ${bucket === 'faucet_token' ? 'digest' : key}`);
        const decision = await real.consume(bucket, key);
        return (bucket === 'faucet_token' ? undefined : options.limiter?.(bucket)) ?? decision;
      },
      refund: async (bucket, key) => {
        calls.push(`refund ${bucket} ${key}`);
        await real.refund(bucket, key);
      },
    };
    const deps: FaucetDeps = {
      config: () => options.config ?? config(),
      limiter: () => limiter,
      backend: () => ({
        requestPayout: async (payout) => {
          calls.push(`backend ${payout.address} ${payout.amount_nanoerg}`);
          return options.backend ? options.backend(payout) : { transactionId: 'ab'.repeat(32), reference: 'ref-1' };
        },
      }),
      clock: () => NOW,
      newRequestId: () => '00000000-0000-4000-8000-000000000000',
    };
    const handler = createFaucetPayoutHandler(deps);
    const post = (body: Record<string, unknown>) =>
      handler({ method: 'POST', path: '/api/dev/faucet', params: {}, query: new URLSearchParams(), headers: {}, body, clientIp: '127.0.0.9' } as ApiRequest);
    return { post, calls };
  }

  const problemOf = async (promise: unknown): Promise<ProblemError> => {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(ProblemError);
      return error as ProblemError;
    }
    throw new Error('expected a problem');
  };
  const token = () => solveChallenge(ADDRESS, EPOCH, 8)!;

  it('pays a valid request once, after the limits, and refuses the replayed token', async () => {
    const { post, calls } = setup();
    const challengeToken = token();
    const answer = await post({ address: ADDRESS, challengeToken });
    expect(answer.status).toBe(200);
    expect(faucetPayoutSchema.parse(answer.body)).toMatchObject({ status: 'accepted_by_backend', address: ADDRESS, transaction_id: 'ab'.repeat(32), backend_reference: 'ref-1', amount: { nanoerg: '1000000000', erg: '1.000000000' } });
    expect(calls).toEqual(['limit faucet_token digest', `limit faucet_address ${PAYEE}`, 'limit faucet_ip 127.0.0.9', `backend ${ADDRESS} 1000000000`]);
    const replay = await problemOf(post({ address: ADDRESS, challengeToken }));
    expect(replay).toMatchObject({ status: 400, code: 'challenge_token_used' });
    // The replay is refused by the spent-token check alone: no limit is counted, the backend is not called.
    expect(calls).toEqual(['limit faucet_token digest', `limit faucet_address ${PAYEE}`, 'limit faucet_ip 127.0.0.9', `backend ${ADDRESS} 1000000000`, 'limit faucet_token digest']);
  });

  it('pays a key once however its address is written: a P2S address of the paid key is refused 429', async () => {
    const { post, calls } = setup();
    const key = hex.encode(ErgoAddress.decode(ADDRESS).getPublicKeys()[0]!);
    const p2s = ErgoAddress.fromErgoTree(`100108cd${key}7300`, Network.Testnet).encode(Network.Testnet);
    expect((await post({ address: ADDRESS, challengeToken: token() })).status).toBe(200);
    const refused = await problemOf(post({ address: p2s, challengeToken: solveChallenge(p2s, EPOCH, 8)! }));
    expect(refused).toMatchObject({ status: 429, code: 'faucet_limit_reached' });
    expect(calls.filter((call) => call.startsWith('backend'))).toEqual([`backend ${ADDRESS} 1000000000`]);
  });

  it('checks the address before anything else, even while payouts are guarded', async () => {
    const guarded = setup({ config: loadFaucetConfig({}) });
    expect(await problemOf(guarded.post({ address: FLEET_ADDRESSES.mainnetP2pk.address }))).toMatchObject({ status: 400, code: 'not_testnet_address', errors: [{ path: '/address', code: 'network' }] });
    expect(await problemOf(guarded.post({ address: FLEET_ADDRESSES.testnetP2pkTypo }))).toMatchObject({ status: 400, code: 'invalid_address', errors: [{ path: '/address', code: 'checksum' }] });
    const off = await problemOf(guarded.post({ address: ADDRESS }));
    expect(off).toMatchObject({ status: 503, code: 'faucet_payouts_guarded', extra: { public_fallback_url: 'https://tn-faucet.ergohost.io' } });
    expect(guarded.calls).toEqual([]);
  });

  it('requires the proof of work before counting against the limits', async () => {
    const { post, calls } = setup();
    expect(await problemOf(post({ address: ADDRESS }))).toMatchObject({ status: 400, code: 'invalid_challenge_token', errors: [{ path: '/challengeToken', code: 'missing' }] });
    expect(calls).toEqual([]);
    const noWork = setup({ config: config({ FAUCET_POW_BITS: '0' }) });
    expect((await noWork.post({ address: ADDRESS })).status).toBe(200);
  });

  it('answers 429 with Retry-After when a limit is used up, without calling the backend', async () => {
    const { post, calls } = setup({ limiter: (bucket) => (bucket === 'faucet_ip' ? { allowed: false, limit: 3, windowSeconds: 86_400, remaining: 0, retryAfterSeconds: 4_000.2, resetSeconds: 4_001 } : allowed) });
    const refused = await problemOf(post({ address: ADDRESS, challengeToken: token() }));
    expect(refused).toMatchObject({ status: 429, code: 'faucet_limit_reached', headers: { 'retry-after': '4001' } });
    expect(calls.some((call) => call.startsWith('backend'))).toBe(false);
    // The address was counted before the IP limit refused: that count is given back.
    expect(calls.at(-1)).toBe(`refund faucet_address ${PAYEE}`);
  });

  it.each([
    [new FaucetBackendError('timeout', 'slow'), 502, 'faucet_backend_timeout'],
    [new FaucetBackendError('unreachable', 'refused'), 502, 'faucet_backend_unreachable'],
    [new FaucetBackendError('rejected', 'the payout backend answered 500', { status: 500 }), 502, 'faucet_backend_error'],
    [new FaucetBackendError('unavailable', 'the payout backend answered 503', { status: 503, retryAfterSeconds: 30 }), 503, 'faucet_backend_unavailable'],
  ])('maps a backend failure (%s) to its documented status', async (failure, status, code) => {
    const { post, calls } = setup({ backend: async () => Promise.reject(failure) });
    const problem = await problemOf(post({ address: ADDRESS, challengeToken: token() }));
    expect(problem).toMatchObject({ status, code });
    if (status === 503) expect(problem.headers['retry-after']).toBe('30');
    // Nothing was paid, so the limits are given back; after a timeout the payout may still arrive, so they are not.
    const refunds = calls.filter((call) => call.startsWith('refund'));
    expect(refunds).toEqual(code === 'faucet_backend_timeout' ? [] : [`refund faucet_address ${PAYEE}`, 'refund faucet_ip 127.0.0.9']);
  });
});

describe('solving the proof of work, at its edges', () => {
  const address = '3WvsT2Gm4EpsM9Pg18PdY6XyhNNMqXDsvJTbbf6ihLvAmSb7u5RN';
  const epoch = 2_946_000;
  const zerosOf = (nonce: string) => leadingZeroBits(blake2b256(utf8.decode(challengePreimage(address, epoch, nonce))));

  it('accepts a digest with exactly as many zero bits as asked', () => {
    const zeros = zerosOf('0');
    expect(solveChallenge(address, epoch, zeros, { maxAttempts: 1 })).toBe(`${epoch}:0`);
    expect(solveChallenge(address, epoch, zeros + 1, { maxAttempts: 1 })).toBeUndefined();
  });

  it('tries exactly maxAttempts nonces, counting from startNonce', () => {
    const bits = 6;
    let first = 0;
    while (zerosOf(first.toString(36)) < bits) first++;
    expect(solveChallenge(address, epoch, bits, { maxAttempts: first })).toBeUndefined();
    expect(solveChallenge(address, epoch, bits, { maxAttempts: first + 1 })).toBe(`${epoch}:${first.toString(36)}`);
    expect(solveChallenge(address, epoch, bits, { startNonce: first, maxAttempts: 1 })).toBe(`${epoch}:${first.toString(36)}`);
  });

  it('never offers a nonce outside the token alphabet, whatever it starts from', () => {
    // A negative start writes a minus sign: no token, even when any digest would do.
    expect(solveChallenge(address, epoch, 0, { startNonce: -3, maxAttempts: 5 })).toBeUndefined();
  });
});
