/**
 * What the hosted assistant shows of itself: the public activity feed (which never carries
 * question text, payment tokens or client addresses) and the health of the signer it depends on.
 */
import { z } from 'zod';
import { isoDateTime, nanoErgString, typeLiteral, versionV0 } from './common.ts';
import { digestHex } from './assistant.ts';

// ---------------------------------------------------------------------------------------------
// GET /api/assistant/activity
// ---------------------------------------------------------------------------------------------

export const activityEventSchema = z
  .object({
    kind: z
      .enum(['quote_issued', 'payment_verified', 'turn_answered'])
      .describe('`quote_issued`: a premium quote was issued; `payment_verified`: a Note paid a quote; `turn_answered`: chat answered a turn.'),
    at: isoDateTime.describe('When it happened.'),
    amountNanoErg: nanoErgString.optional().describe('Amount quoted or paid, in nanoERG; absent for free turns.'),
    taskHash: digestHex.optional().describe('Task hash of the quote concerned; absent for free turns.'),
    receiptId: digestHex.optional().describe('Receipt id, once a payment is verified.'),
  })
  .describe('One public activity record. Never carries question text, payment tokens or client addresses.');
export type ActivityEvent = z.infer<typeof activityEventSchema>;

export const activitySchema = z
  .object({
    type: typeLiteral('agent_economy.assistant_activity.v0'),
    version: versionV0,
    events: z.array(activityEventSchema).describe('Recent events, newest first.'),
  })
  .describe('Recent activity of the hosted assistant.');
export type Activity = z.infer<typeof activitySchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/assistant/signer-health
// ---------------------------------------------------------------------------------------------

export const SIGNER_STATUSES = ['healthy', 'degraded', 'unreachable', 'unconfigured'] as const;

export const signerHealthSchema = z
  .object({
    type: typeLiteral('agent_economy.assistant_signer_health.v0'),
    version: versionV0,
    ok: z.boolean().describe('True only when the signer answered its health check as healthy.'),
    configured: z.boolean().describe('Whether a signer URL is configured (`SIGNER_URL`).'),
    status: z
      .enum(SIGNER_STATUSES)
      .describe(
        '`healthy`: `/health` answered 2xx without `ok: false`; `degraded`: it answered, but non-2xx or `ok: false`; `unreachable`: no answer within the timeout or connection failed; `unconfigured`: no signer URL set.',
      ),
    checked_at: isoDateTime.describe('When the probe ran (results may be reused for a few seconds).'),
    latency_ms: z.int().min(0).optional().describe('How long the probe took; absent when no probe was made.'),
    detail: z.string().min(1).describe('What was checked and what was found, without internal addresses.'),
  })
  .refine((health) => health.ok === (health.status === 'healthy'), { message: 'ok is true exactly when status is healthy', path: ['ok'] })
  .refine((health) => health.configured === (health.status !== 'unconfigured'), {
    message: 'configured is false exactly when status is unconfigured',
    path: ['configured'],
  })
  .describe('Health of the signer service the assistant depends on. This service itself never signs.');
export type SignerHealth = z.infer<typeof signerHealthSchema>;
