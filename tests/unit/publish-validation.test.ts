/**
 * The publish validation (domain): a table of manifests, each a valid one with one thing wrong,
 * and the finding it must produce (code and JSON Pointer); together they reach every code of the
 * publish catalog. Also: a valid manifest passes clean, every finding is reported at once, the
 * checks still run on the well-formed parts of a body that fails its schema, and findings are capped.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import forbiddenClaimsContent from '../../content/forbidden-claims.json' with { type: 'json' };
import { forbiddenClaimsListSchema } from '../../schemas/agent-common.ts';
import type { ServiceManifest } from '../../schemas/registry.ts';
import { compileClaimMatcher } from '../../src/domain/forbidden-claims.ts';
import { checkServiceManifest, PUBLISH_CODES } from '../../src/domain/publish-validation.ts';
import { FindingList, isLocalOnlyHost, schemaCheck, type SubmissionContext } from '../../src/domain/submission-findings.ts';
import { MAX_FINDINGS } from '../../src/domain/validation-check.ts';

const context: SubmissionContext = {
  matcher: compileClaimMatcher(forbiddenClaimsListSchema.parse(forbiddenClaimsContent)),
  siteOrigin: 'http://127.0.0.1:4321',
};

/** A paid, Note-settled third-party service that passes every check. */
const paidManifest: ServiceManifest = {
  id: 'receipt-digest',
  name: 'Receipt digest service',
  description: 'Re-verifies settled testnet receipts and publishes a weekly digest per service, with failures named.',
  provider: { name: 'Example Labs', contact: 'ops@example.org', url: 'https://example.org' },
  capabilities: ['receipt-verification', 'summarization'],
  endpoints: [{ method: 'POST', url: 'https://api.example.org/digest/{week}', purpose: 'Request the digest of one week.' }],
  pricing: { amount: '0.050000000', unit: 'per_job', currency: 'ERG_testnet' },
  accepted_payment_rails: ['ergo_testnet_note'],
  predicate_requirements: [{ id: 'note-binds-task-hash', description: 'The Note carries the task hash of the request in a register.' }],
  evidence: [{ kind: 'proof_explorer', url: 'https://example.org/proofs' }],
  receipt_expectation: { required: true, type: 'settlement_receipt' },
  posture: { network: 'ergo_testnet', mainnet_ready: false, production_custody: false },
  contact: 'ops@example.org',
};

/** A free service. */
const freeManifest: ServiceManifest = {
  ...paidManifest,
  id: 'hash-helper',
  pricing: { amount: '0.000000000', unit: 'per_request', currency: 'ERG_testnet' },
  accepted_payment_rails: ['free'],
  predicate_requirements: [{ id: 'hex-input', description: 'Input is hexadecimal with an even number of digits.' }],
  evidence: [{ kind: 'documentation', url: 'https://example.org/docs' }],
  receipt_expectation: { required: false, type: 'none' },
};

type Json = Record<string, any>;
const variant = (base: ServiceManifest, mutate: (manifest: Json) => void): unknown => {
  const manifest = structuredClone(base) as Json;
  mutate(manifest);
  return manifest;
};

const codesSeen = new Set<string>();
const check = (body: unknown, siteContext: SubmissionContext = context) => {
  const outcome = checkServiceManifest(body, siteContext);
  for (const finding of [...outcome.errors, ...outcome.warnings]) codesSeen.add(finding.code);
  return outcome;
};

describe('publish validation: valid manifests', () => {
  it.each([
    ['a paid Note-settled service', paidManifest],
    ['a free service', freeManifest],
    ['a paid service with a free tier', { ...paidManifest, accepted_payment_rails: ['ergo_testnet_note', 'free'] }],
    // Each kind of settlement evidence is enough on its own.
    ['a paid service whose only evidence is a receipt', { ...paidManifest, evidence: [{ kind: 'receipt' as const, url: 'https://example.org/receipts/1' }] }],
    // The boundary of the supply from below: every ERG that will ever exist is a price, if a steep one.
    ['a price of exactly the total supply', { ...paidManifest, pricing: { ...paidManifest.pricing, amount: '97739924.000000000' } }],
    // Settlement evidence among other evidence; a Note predicate among other predicates.
    [
      'a paid service with documentation and receipt evidence',
      { ...paidManifest, evidence: [{ kind: 'documentation' as const, url: 'https://example.org/docs' }, { kind: 'receipt' as const, url: 'https://example.org/receipts/1' }] },
    ],
    [
      'a paid service with a Note predicate and another',
      { ...paidManifest, predicate_requirements: [...paidManifest.predicate_requirements, { id: 'weekly-window', description: 'The digest covers one ISO week.' }] },
    ],
  ])('%s passes every check with no finding', (_what, manifest) => {
    const outcome = check(manifest);
    expect(outcome.errors).toEqual([]);
    expect(outcome.warnings).toEqual([]);
    expect(outcome.manifest).toEqual(manifest);
    expect(outcome.serviceId).toBe(manifest.id);
  });

  it('accepts this site’s own loopback URLs as evidence, and nobody else’s', () => {
    const own = variant(paidManifest, (m) => (m.evidence = [{ kind: 'proof_explorer', url: 'http://127.0.0.1:4321/api/agent-economy/proofs' }]));
    expect(check(own).errors).toEqual([]);
    expect(check(own).warnings).toEqual([]);
    expect(check(own, { ...context, siteOrigin: 'https://proof.example.org' }).errors.map((e) => e.code)).toEqual(['evidence_url_not_public']);
  });

  it('accepts the URLs of this site\'s runtime where it answers apart (SITE_RUNTIME_URL), and no other origin\'s', () => {
    const atRuntime = variant(paidManifest, (m) => (m.evidence = [{ kind: 'proof_explorer', url: 'http://127.0.0.1:4400/api/agent-economy/proofs' }]));
    expect(check(atRuntime, { ...context, runtimeOrigin: 'http://127.0.0.1:4400' }).errors).toEqual([]);
    expect(check(atRuntime).errors.map((e) => e.code)).toEqual(['evidence_url_not_public']);
    expect(check(atRuntime, { ...context, runtimeOrigin: 'http://127.0.0.1:4401' }).errors.map((e) => e.code)).toEqual(['evidence_url_not_public']);
  });
});

describe('publish validation: one finding per defect', () => {
  it.each<[string, string, string, ServiceManifest, (manifest: Json) => void]>([
    ['a missing field', 'schema_missing_field', '/description', paidManifest, (m) => delete m.description],
    ['a missing nested field', 'schema_missing_field', '/provider/url', paidManifest, (m) => delete m.provider.url],
    ['a wrong type', 'schema_invalid_type', '/name', paidManifest, (m) => (m.name = 42)],
    ['an unknown key', 'schema_unknown_key', '/listing', paidManifest, (m) => (m.listing = { status: 'live_on_this_site' })],
    ['an unknown nested key', 'schema_unknown_key', '/pricing/discount', paidManifest, (m) => (m.pricing.discount = '0.1')],
    ['an empty capability list', 'schema_too_small', '/capabilities', paidManifest, (m) => (m.capabilities = [])],
    ['a name too long', 'schema_too_big', '/name', paidManifest, (m) => (m.name = 'x'.repeat(81))],
    ['an id not in kebab case', 'schema_invalid_format', '/id', paidManifest, (m) => (m.id = 'Receipt_Digest')],
    ['an unknown endpoint method', 'schema_invalid_value', '/endpoints/0/method', paidManifest, (m) => (m.endpoints[0].method = 'PUT')],
    ['a mainnet network', 'posture_network_not_testnet', '/posture/network', paidManifest, (m) => (m.posture.network = 'ergo_mainnet')],
    ['mainnet readiness', 'posture_mainnet_ready', '/posture/mainnet_ready', paidManifest, (m) => (m.posture.mainnet_ready = true)],
    ['production custody', 'posture_production_custody', '/posture/production_custody', paidManifest, (m) => (m.posture.production_custody = true)],
    ['an unknown payment rail', 'payment_unknown_rail', '/accepted_payment_rails/1', paidManifest, (m) => m.accepted_payment_rails.push('lightning')],
    ['a price without nine fraction digits', 'payment_malformed_price', '/pricing/amount', paidManifest, (m) => (m.pricing.amount = '0.05')],
    ['a negative price', 'payment_malformed_price', '/pricing/amount', paidManifest, (m) => (m.pricing.amount = '-1.000000000')],
    ['a price as a JSON number', 'payment_malformed_price', '/pricing/amount', paidManifest, (m) => (m.pricing.amount = 0.05)],
    ['a currency other than testnet ERG', 'payment_unknown_currency', '/pricing/currency', paidManifest, (m) => (m.pricing.currency = 'ERG')],
    ['a price above the total supply', 'payment_price_exceeds_supply', '/pricing/amount', paidManifest, (m) => (m.pricing.amount = '97739924.000000001')],
    ['a paid service without the Note rail', 'payment_paid_without_note_rail', '/accepted_payment_rails', paidManifest, (m) => (m.accepted_payment_rails = ['free'])],
    ['the Note rail at a zero price', 'payment_note_rail_zero_price', '/pricing/amount', freeManifest, (m) => (m.accepted_payment_rails = ['free', 'ergo_testnet_note'])],
    ['a zero price without the free rail', 'payment_free_without_free_rail', '/accepted_payment_rails', freeManifest, (m) => (m.accepted_payment_rails = ['ergo_testnet_note'])],
    ['a paid service without a receipt', 'payment_paid_without_receipt', '/receipt_expectation', paidManifest, (m) => (m.receipt_expectation = { required: false, type: 'none' })],
    ['a paid service with receipt type none', 'payment_paid_without_receipt', '/receipt_expectation', paidManifest, (m) => (m.receipt_expectation.type = 'none')],
    ['a Note service without a Note binding', 'predicate_note_binding_missing', '/predicate_requirements', paidManifest, (m) => (m.predicate_requirements[0].id = 'quote-not-expired')],
    ['a repeated predicate id', 'predicate_duplicate_id', '/predicate_requirements/1/id', freeManifest, (m) => m.predicate_requirements.push({ ...m.predicate_requirements[0] })],
    ['no evidence', 'evidence_missing', '/evidence', freeManifest, (m) => (m.evidence = [])],
    ['an evidence URL that is no URL', 'evidence_url_malformed', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'proofs page')],
    ['an evidence URL on a private address', 'evidence_url_not_public', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'https://192.168.1.20/proofs')],
    ['an evidence URL on localhost', 'evidence_url_not_public', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'https://localhost:8443/proofs')],
    ['an evidence URL on IPv6 loopback', 'evidence_url_not_public', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'https://[::1]/proofs')],
    ['an evidence URL on a hexadecimal loopback', 'evidence_url_not_public', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'https://0x7f.0.0.1/proofs')],
    ['an evidence URL on a .local host', 'evidence_url_not_public', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'https://proofs.local/')],
    ['an evidence URL with credentials', 'evidence_url_credentials', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'https://reader:secret@example.org/proofs')],
    ['a paid service without settlement evidence', 'evidence_settlement_missing', '/evidence', paidManifest, (m) => (m.evidence[0].kind = 'documentation')],
    ['a claim in the description', 'forbidden_claim', '/description', paidManifest, (m) => (m.description = 'Fully audited digest of every settled receipt, every week.')],
    ['a disguised claim in a purpose', 'forbidden_claim', '/endpoints/0/purpose', paidManifest, (m) => (m.endpoints[0].purpose = 'Returns the m\u0430innet\u200B-r\u0435ady digest')],
    ['a claim in a predicate', 'forbidden_claim', '/predicate_requirements/1/description', paidManifest, (m) => m.predicate_requirements.push({ id: 'note-escrow', description: 'Funds are held in escrow until delivery.' })],
    ['a claim in an evidence URL', 'forbidden_claim', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'https://example.org/guaranteed-returns')],
    ['a claim in the value of an unknown key', 'forbidden_claim', '/tagline', paidManifest, (m) => (m.tagline = 'risk-free')],
  ])('%s: %s at %s', (_what, code, path, base, mutate) => {
    const outcome = check(variant(base, mutate));
    expect(outcome.errors).toContainEqual({ code, path, message: expect.any(String) });
    expect(outcome.errors.find((e) => e.code === code)!.message.length).toBeGreaterThan(20);
  });

  it('reports a paid service with no evidence at all as missing evidence, once, not also as missing settlement evidence', () => {
    const outcome = check(variant(paidManifest, (m) => (m.evidence = [])));
    expect(outcome.errors.map((finding) => finding.code)).toEqual(['evidence_missing']);
  });

  it.each<[string, string, string, ServiceManifest, (manifest: Json) => void]>([
    ['a repeated payment rail', 'payment_duplicate_rail', '/accepted_payment_rails/1', paidManifest, (m) => m.accepted_payment_rails.push('ergo_testnet_note')],
    ['no predicate requirement on a free service', 'predicate_none_declared', '/predicate_requirements', freeManifest, (m) => (m.predicate_requirements = [])],
    ['a plain-http evidence URL', 'evidence_url_plain_http', '/evidence/0/url', paidManifest, (m) => (m.evidence[0].url = 'http://example.org/proofs')],
    ['a repeated evidence URL', 'evidence_duplicate_url', '/evidence/1/url', paidManifest, (m) => m.evidence.push({ kind: 'receipt', url: m.evidence[0].url })],
  ])('warns on %s (%s at %s) without blocking', (_what, code, path, base, mutate) => {
    const outcome = check(variant(base, mutate));
    expect(outcome.warnings).toContainEqual({ code, path, message: expect.any(String) });
    expect(outcome.errors).toEqual([]);
  });

  it('a disclaimer is not a claim', () => {
    const outcome = check(variant(paidManifest, (m) => (m.description = 'Non-custodial and not audited: the digest never holds custody of anything.')));
    expect(outcome.errors).toEqual([]);
  });
});

describe('publish validation: every finding at once', () => {
  it('reports findings of every check in one answer, in check order', () => {
    const outcome = check(
      variant(paidManifest, (m) => {
        m.extra = true;
        m.posture.mainnet_ready = true;
        m.accepted_payment_rails = ['free'];
        m.predicate_requirements = [];
        m.evidence = [{ kind: 'documentation', url: 'https://localhost/docs' }];
        m.name = 'Production-ready digest';
      }),
    );
    expect(outcome.errors.map((e) => e.code)).toEqual([
      'schema_unknown_key',
      'posture_mainnet_ready',
      'payment_paid_without_note_rail',
      'evidence_url_not_public',
      'evidence_settlement_missing',
      'forbidden_claim',
    ]);
    expect(outcome.manifest).toBeUndefined();
    expect(outcome.serviceId).toBe('receipt-digest');
  });

  it('runs the other checks on the well-formed parts when some part fails its schema', () => {
    const outcome = check(variant(paidManifest, (m) => ((m.pricing.amount = 'five'), (m.posture.network = 'mainnet'), (m.description = 'Audited digest of settled receipts, weekly.'))));
    expect(outcome.errors.map((e) => [e.code, e.path])).toEqual([
      ['payment_malformed_price', '/pricing/amount'],
      ['posture_network_not_testnet', '/posture/network'],
      ['forbidden_claim', '/description'],
    ]);
  });

  it.each([
    ['an array', [], ''],
    ['a string', 'manifest', ''],
    ['null', null, ''],
  ])('answers %s with one schema finding for the body', (_what, body, path) => {
    const outcome = check(body);
    expect(outcome.errors).toEqual([{ code: 'schema_invalid_type', path, message: expect.any(String) }]);
    expect(outcome.serviceId).toBeNull();
  });

  it('caps a flood of findings and says how many were left out', () => {
    const flood = variant(paidManifest, (m) => {
      for (let i = 0; i < 150; i++) m[`extra_${i}`] = 'audited';
    });
    const outcome = check(flood);
    expect(outcome.errors).toHaveLength(MAX_FINDINGS);
    expect(outcome.errors.at(-1)).toEqual({ code: 'findings_truncated', path: '', message: expect.stringMatching(/^201 more findings/) });
  });
});

describe('schema findings for zod issues the request schemas do not produce today', () => {
  it('map to schema_invalid, so a future schema cannot yield an unknown code', () => {
    const findings = new FindingList(PUBLISH_CODES);
    const schema = z.strictObject({ value: z.union([z.literal('a'), z.int()]) });
    const parsed = schema.safeParse({ value: true });
    expect(parsed.success).toBe(false);
    schemaCheck().run(findings, { raw: { value: true }, schemaError: parsed.error, parts: {} });
    expect(findings.lists().errors).toEqual([{ code: 'schema_invalid', path: '/value', message: expect.any(String) }]);
    codesSeen.add('schema_invalid');
  });
});

describe('local-only hosts', () => {
  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['169.254.1.1', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['[fd00::1]', true],
    ['[fe80::1]', true],
    ['[::ffff:7f00:1]', true],
    ['intranet', true],
    ['printer.lan', true],
    ['example.org', false],
    ['8.8.8.8', false],
    ['[2001:db8::1]', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLocalOnlyHost(host)).toBe(expected);
  });
});

describe('coverage of the catalog', () => {
  // Runs last (Vitest runs a file's tests in order): every code the publish guide publishes was
  // produced by some case above, so no published code is dead.
  it('every code of the publish catalog was reached', () => {
    expect(PUBLISH_CODES.map((entry) => entry.code).filter((code) => !codesSeen.has(code))).toEqual([]);
  });
});
