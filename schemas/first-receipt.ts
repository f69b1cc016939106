/**
 * The first-receipt flow (spec 2.5, `GET /api/agent-economy/first-receipt`): the shortest path from
 * nothing to a settled testnet receipt you have re-checked yourself, written as commands with the
 * answer each one must give.
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, hex64, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { policyCheckRequestSchema, policyVerdictSchema } from './policy-check.ts';

export const FIRST_RECEIPT_STEP_IDS = ['live-status', 'receipt-json', 'policy-check', 'openapi', 'mcp-health', 'mainnet-gate'] as const;

export const firstReceiptOutcomeSchema = z
  .object({
    goal: z.string().min(1).describe('What the flow ends with.'),
    receipt_id: hex64
      .nullable()
      .describe(
        'Id of the first full receipt bundle settled on the testnet. Null until the first paid turn has settled and its id is recorded in the content of this flow; until then `receipt_api` and `receipt_page` point at the live status, which reports `latest_full_receipt_id`.',
      ),
    receipt_page: absoluteUrl.describe('Human page where the receipt is shown (the live status page while `receipt_id` is null).'),
    receipt_api: absoluteUrl.describe('JSON of the receipt bundle, or the live status (whose `latest_full_receipt_id` names it) while `receipt_id` is null.'),
    expected_receipt_type: z.literal('full_receipt_bundle').describe('A paid turn yields a full receipt bundle.'),
    expected_status: z.literal('settled_on_chain').describe('Status of a settled receipt.'),
    contains: z.array(z.string().min(1)).min(1).describe('Parts of the bundle, by field name.'),
  })
  .describe('What the flow produces.');

export const firstReceiptStepSchema = z.object({
  id: z.enum(FIRST_RECEIPT_STEP_IDS).describe('Step id, stable across versions.'),
  label: z.string().min(1).describe('What the step does.'),
  method: z.enum(['GET', 'POST']).describe('HTTP method.'),
  endpoint: z.string().min(1).describe('Absolute URL called; `{id}` marks the receipt id or transaction id.'),
  command: z.string().min(1).describe('Shell command that performs the step.'),
  expect: z.string().min(1).describe('What the answer must show.'),
  status: z
    .enum(['live', 'closed_by_design'])
    .describe('`live`: the step works today on the testnet; `closed_by_design`: it shows a gate that stays closed until its blockers are cleared.'),
});

export const firstReceiptFlowSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.first_receipt_flow.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    recommended_summary: z.string().min(1).describe('One paragraph that describes the flow accurately.'),
    public_claim: z.string().min(1).describe('What the flow proves, and what it does not.'),
    posture: postureSchema,
    network: postureSchema.shape.network,
    mainnet_ready: postureSchema.shape.mainnet_ready,
    production_custody: postureSchema.shape.production_custody,
    canonical: absoluteUrl.describe('Human page of this flow.'),
    api: absoluteUrl.describe('This JSON.'),
    schema: absoluteUrl.describe('JSON Schema of this JSON.'),
    outcome: firstReceiptOutcomeSchema,
    one_command_probe: z
      .object({
        label: z.string().min(1).describe('What the probe shows.'),
        command: z.string().regex(/^curl /, 'must be a curl command').describe('One shell command.'),
        expect: z.string().min(1).describe('What its output must contain.'),
      })
      .describe('A single command that shows the flow is live.'),
    steps: z.array(firstReceiptStepSchema).length(FIRST_RECEIPT_STEP_IDS.length).describe('The flow, in order.'),
    policy_check: z
      .object({
        endpoint: absoluteUrl.describe('Policy-check endpoint (POST).'),
        method: z.literal('POST').describe('HTTP method.'),
        contract: absoluteUrl.describe('Policy-check contract (GET): schemas, example request, example verdict.'),
        request_schema: absoluteUrl.describe('JSON Schema of the request body.'),
        example_request: policyCheckRequestSchema.describe('A safe testnet request that the policy allows; POST it as is.'),
        example_verdict: policyVerdictSchema.describe('The verdict the endpoint gives for `example_request` (only `checked_at` differs between runs).'),
        command: z.string().regex(/^curl /, 'must be a curl command').describe('The example request as one shell command.'),
        signing_boundary: z.string().min(1).describe('The check never signs, broadcasts, stores keys or grants wallet authority.'),
      })
      .describe('Check the wallet action before anything is signed.'),
    developer_next_actions: z
      .array(
        z.object({
          id: z.string().regex(/^[a-z0-9-]+$/).describe('Action id.'),
          label: z.string().min(1).describe('What to do next.'),
          href: absoluteUrl.describe('Where to do it.'),
          reason: z.string().min(1).describe('Why it is the next thing to do.'),
        }),
      )
      .min(1)
      .describe('Where to go after the first receipt.'),
    guardrails: z.array(z.string().min(1)).min(1).describe('Rules the flow keeps.'),
  })
  .describe('First-receipt flow: from live status to a re-checked testnet receipt, with the policy check before signing.');

export type FirstReceiptFlow = z.infer<typeof firstReceiptFlowSchema>;
