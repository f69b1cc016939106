/**
 * Builder of the first-receipt flow (spec 2.5). Until `content/first-receipt.json` records the id
 * of the first full receipt bundle settled on the testnet, `outcome.receipt_id` is null and the
 * receipt links point at the live status, whose `latest_full_receipt_id` names the receipt as soon
 * as one exists; the receipt step's command then reads that id from the live status itself.
 */
import content from '../../content/first-receipt.json' with { type: 'json' };
import type { FirstReceiptFlow } from '../../schemas/first-receipt.ts';
import { examplePolicyCheckRequest, examplePolicyVerdict } from '../domain/policy-examples.ts';
import { SIGNING_BOUNDARY } from '../domain/policy-engine.ts';
import { pageUrl, receiptUrl, routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';
import { curlGet, curlPostJson, hostedRouteUrl, shellQuote } from './commands.ts';
import { descriptorHeader, POSTURE } from './common.ts';

type StepId = FirstReceiptFlow['steps'][number]['id'];

/** The recorded first receipt id, or null; a malformed id in content fails the build here. */
function recordedReceiptId(): string | null {
  const id: string | null = content.receipt_id;
  if (id !== null && !/^[0-9a-f]{64}$/.test(id)) {
    throw new Error(`content/first-receipt.json: receipt_id must be null or 64 lower-case hex characters, got "${id}"`);
  }
  return id;
}

/**
 * The receipt step's command: a fixed URL once the first receipt is recorded; before that, a
 * two-command pipeline that reads `latest_full_receipt_id` from the live status with Node (which
 * every builder of this stack has) and fetches that receipt.
 */
function receiptCommand(id: string | null): string {
  if (id) return curlGet(receiptUrl(id));
  const [prefix, suffix] = routeUrl('assistant-receipt').split('{id}') as [string, string];
  const readId = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).latest_full_receipt_id))'`;
  return `RECEIPT_ID=$(${curlGet(routeUrl('live'))} | ${readId}) && curl -sS ${shellQuote(prefix)}"$RECEIPT_ID"${suffix ? shellQuote(suffix) : ''}`;
}

export function buildFirstReceiptFlow(): FirstReceiptFlow {
  const receiptId = recordedReceiptId();
  const step = (id: StepId) => content.steps[id];
  const policyCommand = curlPostJson(routeUrl('policy-check'), examplePolicyCheckRequest);
  return {
    ok: true,
    ...descriptorHeader('agent_economy.first_receipt_flow.v0'),
    recommended_summary: content.recommended_summary,
    public_claim: content.public_claim,
    posture: POSTURE,
    network: POSTURE.network,
    mainnet_ready: POSTURE.mainnet_ready,
    production_custody: POSTURE.production_custody,
    canonical: pageUrl('first-receipt'),
    api: routeUrl('first-receipt'),
    schema: routeSchemaUrl('first-receipt'),
    outcome: {
      goal: content.goal,
      receipt_id: receiptId,
      receipt_page: receiptId ? pageUrl('proofs') : pageUrl('live'),
      receipt_api: receiptId ? receiptUrl(receiptId) : routeUrl('live'),
      expected_receipt_type: 'full_receipt_bundle',
      expected_status: 'settled_on_chain',
      contains: content.contains,
    },
    one_command_probe: {
      label: content.one_command_probe.label,
      command: curlGet(routeUrl('live')),
      expect: content.one_command_probe.expect,
    },
    steps: [
      { id: 'live-status', method: 'GET', endpoint: routeUrl('live'), command: curlGet(routeUrl('live')), status: 'live', ...step('live-status') },
      {
        id: 'receipt-json',
        method: 'GET',
        endpoint: receiptId ? receiptUrl(receiptId) : routeUrl('assistant-receipt'),
        command: receiptCommand(receiptId),
        status: 'live',
        ...step('receipt-json'),
      },
      { id: 'policy-check', method: 'POST', endpoint: routeUrl('policy-check'), command: policyCommand, status: 'live', ...step('policy-check') },
      { id: 'openapi', method: 'GET', endpoint: routeUrl('openapi'), command: curlGet(routeUrl('openapi')), status: 'live', ...step('openapi') },
      {
        id: 'mcp-health',
        method: 'GET',
        endpoint: hostedRouteUrl('mcp-health'),
        command: curlGet(hostedRouteUrl('mcp-health')),
        status: 'live',
        ...step('mcp-health'),
      },
      {
        id: 'mainnet-gate',
        method: 'GET',
        endpoint: routeUrl('mainnet-gate'),
        command: curlGet(routeUrl('mainnet-gate')),
        status: 'closed_by_design',
        ...step('mainnet-gate'),
      },
    ],
    policy_check: {
      endpoint: routeUrl('policy-check'),
      method: 'POST',
      contract: routeUrl('policy-check-contract'),
      request_schema: routeSchemaUrl('policy-check'),
      example_request: examplePolicyCheckRequest,
      example_verdict: examplePolicyVerdict(),
      command: policyCommand,
      signing_boundary: SIGNING_BOUNDARY,
    },
    developer_next_actions: content.developer_next_actions.map(({ route, ...action }) => ({ ...action, href: routeUrl(route) })),
    guardrails: content.guardrails,
  };
}
