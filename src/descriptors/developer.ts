/**
 * Builders of the developer services index (spec 2.3) and the developer tools catalogue. The index
 * is generated from the route table, so it lists every endpoint of the build and says truthfully
 * which runtime endpoints have no handler yet; the catalogue's examples are test vectors from
 * `content/dev-tools.json`, each run through the real tools by the tests.
 */
import devToolsJson from '../../content/dev-tools.json' with { type: 'json' };
import type { DevServicesIndex } from '../../schemas/dev-services.ts';
import { DEV_TOOL_ACTIONS, DEV_TOOL_MAX_INPUT_CHARACTERS } from '../../schemas/dev-tools.ts';
import { devToolsContentSchema, type DevToolsCatalogue, type DevToolsContent } from '../../schemas/dev-tools-catalogue.ts';
import { receiptBundleSchema, type ReceiptBundle } from '../../schemas/receipt.ts';
import { schemaUrl, siteUrl, typeName } from '../config/site.ts';
import { computeReceiptId } from '../domain/receipt-id.ts';
import { MAX_BODY_BYTES } from '../config/limits.ts';
import { bodySchemaOf, entryUrl, routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';
import { catalogue, entryById } from '../catalogue/index.ts';
import type { Entry } from '../catalogue/types.ts';
import { hostedRouteUrl } from './commands.ts';
import { descriptorHeader, POSTURE } from './common.ts';

let parsedContent: DevToolsContent | undefined;

/** `content/dev-tools.json`, validated on first use so a broken test vector fails the build. */
export function devToolsContent(): DevToolsContent {
  parsedContent ??= devToolsContentSchema.parse(devToolsJson);
  return parsedContent;
}

/** The content entry of one action. */
export function devToolEntry(action: DevToolsContent['actions'][number]['action']): DevToolsContent['actions'][number] {
  const entry = devToolsContent().actions.find((candidate) => candidate.action === action);
  if (!entry) throw new Error(`content/dev-tools.json: action "${action}" is missing`);
  return entry;
}

/** The OpenAPI 3.1 document is governed by the specification's own JSON Schema, not one of ours. */
const OPENAPI_3_1_SCHEMA = 'https://spec.openapis.org/oas/3.1/schema/2022-10-07';

function serviceEntry(route: Entry): DevServicesIndex['services'][number] {
  const published = bodySchemaOf(route);
  const schema = published ? schemaUrl(published.file) : route.id === 'openapi' ? OPENAPI_3_1_SCHEMA : null;
  const responseSchema = route.kind === 'dynamic' ? route.responses[200]?.schema : undefined;
  return {
    id: route.id,
    method: route.method,
    url: entryUrl(route),
    summary: route.summary,
    group: route.tag,
    host: route.host ?? 'site',
    delivery: route.kind === 'static' ? 'static' : 'runtime',
    // Every route of the catalogue answers in this build: the route table refuses to build a runtime
    // route of this site without its handler, and the MCP host serves its own (`/health`).
    available: true,
    machine_readable: {
      url: entryUrl(route),
      schema,
      response_schema: responseSchema ? schemaUrl(responseSchema.file) : null,
    },
    page: route.page ? siteUrl(route.page) : null,
  };
}

export function buildDevServicesIndex(): DevServicesIndex {
  const services = catalogue().map(serviceEntry);
  const count = (predicate: (service: (typeof services)[number]) => boolean) => services.filter(predicate).length;
  return {
    ok: true,
    ...descriptorHeader('dev_services_index.v1'),
    counts: {
      total: services.length,
      machine_readable: count((service) => service.machine_readable.schema !== null),
      static: count((service) => service.delivery === 'static'),
      runtime: count((service) => service.delivery === 'runtime'),
      available: count((service) => service.available),
      with_page: count((service) => service.page !== null),
    },
    services,
    probes: {
      agent_live: {
        url: routeUrl('live'),
        method: 'GET',
        checks: ['ok', 'summary.gates_live', 'summary.mainnet_gate_status', 'summary.latest_full_receipt_id', 'probes.mcp_dns.ok'],
        description: 'ok is true when every required probe passes; gates_live lists the surfaces answering now and latest_full_receipt_id the newest settled receipt.',
      },
      mcp_health: {
        url: hostedRouteUrl('mcp-health'),
        method: 'GET',
        checks: ['ok', 'service', 'version'],
        description: 'The MCP host is up; only then connect a client to its /mcp endpoint.',
      },
      signer_health: {
        url: routeUrl('assistant-signer-health'),
        method: 'GET',
        checks: ['status code 200 (healthy) or 503 (unavailable or degraded)'],
        description: 'Whether the assistant operator\'s signer service answers its health probe. Quotes, payments and chat do not need it: nothing here signs.',
      },
      faucet: {
        url: routeUrl('faucet-descriptor'),
        method: 'GET',
        checks: ['enabled', 'configured', 'amount.erg', 'public_fallback_url'],
        description: 'Whether testnet payouts are on here, how much one payout is, and the public faucet to use otherwise.',
      },
    },
    openapi: routeUrl('openapi'),
    posture: POSTURE,
  };
}

/**
 * The `receipt` example: the content's bundle with the quote's `type` for this site's namespace and
 * its receiptId computed by the same function that stores receipts, checked against the receipt
 * schema, so the example is a complete bundle whatever the configuration.
 */
export function receiptExampleBundle(): ReceiptBundle {
  const entry = devToolEntry('receipt');
  const stored = entry.example_bundle_without_id as { quote_evidence?: { quote?: Record<string, unknown> } } | undefined;
  if (!stored?.quote_evidence?.quote) throw new Error('content/dev-tools.json: the receipt action needs example_bundle_without_id with quote_evidence.quote');
  const withoutId = {
    ...stored,
    quote_evidence: { ...stored.quote_evidence, quote: { type: typeName('agent_economy.assistant_quote.v0'), ...stored.quote_evidence.quote } },
  };
  const bundle = { receiptId: computeReceiptId(withoutId), ...withoutId };
  const parsed = receiptBundleSchema.safeParse(bundle);
  if (!parsed.success) throw new Error(`content/dev-tools.json: the receipt example bundle is not a receipt bundle: ${parsed.error.message}`);
  return bundle as ReceiptBundle;
}

function receiptExample(): Pick<DevToolsCatalogue['actions'][number], 'example_request' | 'example_expected' | 'example_note'> {
  const entry = devToolEntry('receipt');
  if (!entry.example_note) throw new Error('content/dev-tools.json: the receipt action needs example_note');
  const bundle = receiptExampleBundle();
  return {
    example_request: { action: 'receipt', input: JSON.stringify(bundle), encoding: 'utf8', network: 'testnet' },
    example_expected: {
      '/result/verified': true,
      '/result/receipt_id': bundle.receiptId,
      '/result/receipt_id_matches': true,
      '/result/chain': bundle.chain,
      '/warnings/0/code': 'sandbox_chain',
    },
    example_note: entry.example_note,
  };
}

export function buildDevToolsCatalogue(): DevToolsCatalogue {
  const actions = DEV_TOOL_ACTIONS.map((action) => {
    const entry = devToolEntry(action);
    const common = { action, label: entry.label, description: entry.description, input: entry.input, limits: entry.limits };
    if (action === 'receipt') return { ...common, ...receiptExample() };
    if (!entry.example_request || !entry.example_expected || !entry.example_note) {
      throw new Error(`content/dev-tools.json: action "${action}" needs example_request, example_expected and example_note`);
    }
    if (entry.example_request.action !== action) throw new Error(`content/dev-tools.json: the example of "${action}" runs "${entry.example_request.action}"`);
    return { ...common, example_request: entry.example_request, example_expected: entry.example_expected, example_note: entry.example_note };
  });
  const resultSchema = entryById().get('dev-tools');
  const result200 = resultSchema?.kind === 'dynamic' ? resultSchema.responses[200]?.schema : undefined;
  if (!result200) throw new Error('route table: dev-tools has no documented 200 schema');
  return {
    ok: true,
    ...descriptorHeader('agent_economy.dev_tools_catalogue.v0'),
    endpoint: routeUrl('dev-tools'),
    method: 'POST',
    request_schema: routeSchemaUrl('dev-tools'),
    result_schema: schemaUrl(result200.file),
    limits: {
      max_input_characters: DEV_TOOL_MAX_INPUT_CHARACTERS,
      max_body_bytes: MAX_BODY_BYTES,
      default_encoding: 'utf8',
      default_network: 'testnet',
    },
    boundary: {
      signs_transactions: false,
      broadcasts: false,
      mutates_chain_state: false,
      stores_input: false,
      reads: devToolsContent().reads,
    },
    errors: devToolsContent().errors,
    actions,
    posture: POSTURE,
  };
}
