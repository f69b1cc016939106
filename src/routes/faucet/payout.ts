/**
 * POST /api/dev/faucet: the payout request, in the order the faucet descriptor publishes. The
 * address is checked first (a mainnet or malformed one is refused before anything else runs); then
 * whether payouts are on at all (503 with the public fallback faucet when not); then the proof of
 * work and its single use; then the per-address and per-IP limits (the per-address one counting the
 * key or script the address pays, however it is written); only then is the request
 * forwarded to the dedicated backend wallet, within a bounded timeout. The site signs nothing.
 *
 * Spent tokens and both limits live in the rate limiter, so with REDIS_URL every instance sees the
 * same ones. A payout that certainly paid nothing (backend unreachable, refusing or out of funds)
 * gives its two limit counts back; a timeout does not, since that payout may still arrive. The
 * token stays spent either way: it is the proof of work, not the payout, that it stands for.
 */
import { randomUUID } from 'node:crypto';
import type { FaucetRequest } from '../../../schemas/faucet.ts';
import { FAUCET_EPOCH_SECONDS, type FaucetConfig } from '../../config/faucet.ts';
import { typeName } from '../../config/site.ts';
import { decodeAddress } from '../../domain/ergo/address.ts';
import { payeeKey } from '../../domain/faucet/payee-key.ts';
import { verifyChallengeToken } from '../../domain/faucet/proof-of-work.ts';
import { formatNanoErg } from '../../domain/money.ts';
import { json, type Handler } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { POSTURE } from '../../descriptors/common.ts';
import { FaucetBackendError, type FaucetBackend } from '../../services/faucet/backend-client.ts';
import { logger } from '../../services/logger.ts';
import type { RateLimitBucket } from '../../config/rate-limit.ts';
import type { RateLimitDecision, RateLimiter } from '../../domain/ports.ts';
import { rateLimitFields } from '../../services/rate-limit/header.ts';

export interface FaucetDeps {
  /** The faucet configuration; throws naming the variable when it is malformed. */
  config: () => FaucetConfig;
  /** Loaded on first use, like the rest of the runtime's outside connections. */
  limiter: () => RateLimiter | Promise<RateLimiter>;
  backend: (config: FaucetConfig) => FaucetBackend;
  clock: () => Date;
  newRequestId?: () => string;
}

/**
 * The configuration, or the 503 an operator's mistake deserves: logged with the variable it names,
 * answered without repeating any value (the backend URL may carry credentials).
 */
export function faucetConfigOr503(read: () => FaucetConfig): FaucetConfig {
  try {
    return read();
  } catch (error) {
    logger.error({ msg: error instanceof Error ? error.message : String(error) }, 'faucet configuration invalid');
    throw new ProblemError(
      503,
      'faucet_misconfigured',
      'Faucet misconfigured',
      'The faucet configuration of this deployment is invalid, so no payout can be made; use a public Ergo testnet faucet meanwhile.',
    );
  }
}

/** The address's ErgoTree (hex), once the address is known to be a valid testnet one. */
function checkAddress(address: string): string {
  const check = decodeAddress(address);
  if (!check.valid) {
    throw new ProblemError(400, 'invalid_address', 'Invalid address', `address is not a valid Ergo address: ${check.message}.`, {
      errors: [{ path: '/address', code: check.reason, message: check.message }],
    });
  }
  if (check.network !== 'testnet') {
    const message = `this is a ${check.network} address; the faucet pays testnet addresses only (they start with 3 for P2PK)`;
    throw new ProblemError(400, 'not_testnet_address', 'Not a testnet address', `address is not a testnet address: ${message}.`, {
      errors: [{ path: '/address', code: 'network', message }],
    });
  }
  return check.ergoTree;
}

/** The proof of work checked and spent; nothing to do when the deployment asks for none. */
async function spendProofOfWork(limiter: RateLimiter, config: FaucetConfig, body: FaucetRequest, now: Date): Promise<void> {
  if (config.powBits === 0) return;
  const verdict = verifyChallengeToken(body.address, body.challengeToken, { bits: config.powBits, epochSeconds: FAUCET_EPOCH_SECONDS }, now);
  if (!verdict.ok) {
    throw new ProblemError(400, 'invalid_challenge_token', 'Invalid challenge token', verdict.message, {
      errors: [{ path: '/challengeToken', code: verdict.reason, message: verdict.message }],
    });
  }
  if (!(await limiter.consume('faucet_token', verdict.digest)).allowed) {
    const message = 'this challengeToken was already spent; each token unlocks one payout request. Solve a new challenge.';
    throw new ProblemError(400, 'challenge_token_used', 'Challenge token already used', message, { errors: [{ path: '/challengeToken', code: 'already_used', message }] });
  }
}

type Counted = Array<readonly [RateLimitBucket, string]>;

const refund = (limiter: RateLimiter, counted: Counted): Promise<unknown> => Promise.all(counted.map(([bucket, key]) => limiter.refund(bucket, key)));

/**
 * Counts the payout against the per-address and per-IP limits; a refusal gives back what was
 * counted before it. The per-address limit counts the key or script paid (`payee`), so the other
 * addresses of one key share its count. Allowed: the `RateLimit` header of the limit with the
 * fewest payouts left, so a client paces itself before a 429.
 */
async function countLimits(limiter: RateLimiter, payee: string, clientIp: string): Promise<{ counted: Counted; rateLimit: ReturnType<typeof rateLimitFields> }> {
  const counted: Counted = [];
  let tightest: { bucket: string; decision: RateLimitDecision } | undefined;
  for (const [bucket, key, what] of [
    ['faucet_address', payee, 'payouts to this address (or another address of the same key or script)'],
    ['faucet_ip', clientIp, 'payouts requested from this client'],
  ] as const) {
    const decision = await limiter.consume(bucket, key);
    if (!decision.allowed) {
      await refund(limiter, counted);
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterSeconds));
      throw new ProblemError(429, 'faucet_limit_reached', 'Faucet limit reached', `The limit of ${decision.limit} ${what} per window is used up; retry in ${retryAfter} s.`, {
        headers: { 'retry-after': String(retryAfter), ...rateLimitFields(bucket, { ...decision, remaining: 0 }) },
        extra: { retry_after_seconds: retryAfter },
      });
    }
    counted.push([bucket, key]);
    if (!tightest || decision.remaining < tightest.decision.remaining) tightest = { bucket, decision };
  }
  return { counted, rateLimit: rateLimitFields(tightest!.bucket, tightest!.decision) };
}

function backendProblem(error: FaucetBackendError, config: FaucetConfig): ProblemError {
  switch (error.kind) {
    case 'unavailable':
      return new ProblemError(503, 'faucet_backend_unavailable', 'Payout backend unavailable', `The payout backend is busy or out of funds (${error.message}); retry later or use the public faucet.`, {
        headers: error.retryAfterSeconds ? { 'retry-after': String(error.retryAfterSeconds) } : {},
        extra: { public_fallback_url: config.fallbackUrl },
      });
    case 'timeout':
      return new ProblemError(
        502,
        'faucet_backend_timeout',
        'Payout backend timed out',
        `The payout backend did not answer within ${config.backendTimeoutMs} ms. The payout may still arrive: check the address on the testnet explorer before asking again.`,
      );
    case 'unreachable':
      return new ProblemError(502, 'faucet_backend_unreachable', 'Payout backend unreachable', 'The payout backend could not be reached; nothing was paid.');
    case 'rejected':
      return new ProblemError(502, 'faucet_backend_error', 'Payout backend failed', `The payout backend refused or failed the request (${error.message}); nothing is known to be paid.`);
  }
}

export function createFaucetPayoutHandler(deps: FaucetDeps): Handler {
  return async (request) => {
    const body = request.body as FaucetRequest;
    const ergoTree = checkAddress(body.address);
    const config = faucetConfigOr503(deps.config);
    if (!config.enabled || !config.backendUrl) {
      throw new ProblemError(
        503,
        'faucet_payouts_guarded',
        'Payouts guarded',
        `Testnet payouts are guarded here until a dedicated backend wallet is configured; ask the public faucet at ${config.fallbackUrl} instead.`,
        { extra: { public_fallback_url: config.fallbackUrl } },
      );
    }
    const limiter = await deps.limiter();
    await spendProofOfWork(limiter, config, body, deps.clock());
    const { counted, rateLimit } = await countLimits(limiter, payeeKey(ergoTree), request.clientIp);

    let accepted;
    try {
      accepted = await deps.backend(config).requestPayout({
        address: body.address,
        amount_nanoerg: config.amountNanoErg.toString(),
        network: 'testnet',
        request_id: (deps.newRequestId ?? randomUUID)(),
      });
    } catch (error) {
      if (!(error instanceof FaucetBackendError)) throw error;
      logger.warn({ kind: error.kind, status: error.status }, 'faucet payout backend failed');
      if (error.kind !== 'timeout') await refund(limiter, counted);
      throw backendProblem(error, config);
    }
    return json(200, {
      ok: true,
      type: typeName('agent_economy.faucet_payout.v0'),
      version: 'v0',
      status: 'accepted_by_backend',
      address: body.address,
      network: 'testnet',
      amount: { nanoerg: config.amountNanoErg.toString(), erg: formatNanoErg(config.amountNanoErg) },
      transaction_id: accepted.transactionId,
      backend_reference: accepted.reference,
      accepted_at: deps.clock().toISOString(),
      posture: POSTURE,
    }, rateLimit);
  };
}
