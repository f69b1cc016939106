/**
 * The job acceptance and job quote validations (domain), against a fixed board and a fixed clock: a
 * table per validation of bodies with one thing wrong and the finding each must produce, together
 * reaching every code of both catalogs; the valid example of each passes; `accepted_job_id` and the
 * agreement draft's task hash are recomputed here independently (Fleet SDK blake2b256 over RFC 8785
 * canonical JSON); and the draft has the shape of the assistant receipt's Agreement part.
 */
import { blake2b256, hex, utf8 } from '@fleet-sdk/crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import forbiddenClaimsContent from '../../content/forbidden-claims.json' with { type: 'json' };
import { forbiddenClaimsListSchema } from '../../schemas/agent-common.ts';
import { jobSchema, type Job } from '../../schemas/jobs.ts';
import { agreementDraftSchema, type JobAcceptanceIntent, type JobQuoteRequest } from '../../schemas/job-validations.ts';
import { agreementSchema } from '../../schemas/receipt.ts';
import { compileClaimMatcher } from '../../src/domain/forbidden-claims.ts';
import { ACCEPTANCE_CODES, acceptedJobId, checkAcceptanceIntent, checkQuoteRequest, QUOTE_CODES, type JobsContext } from '../../src/domain/job-validation.ts';
import { MAX_FINDINGS } from '../../src/domain/validation-check.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const TESTNET_ADDRESS = '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw';
const MAINNET_ADDRESS = '9fRAWhdxEsTcdb8PhGNrZfwqa65zfkuYHAMmkQLcic1gdLSV5vA';
const RECEIPT_ID = 'a'.repeat(64);

const openJob: Job = jobSchema.parse({
  id: 'job-receipt-digest',
  title: 'Weekly digest of settled testnet receipts',
  description: 'Re-verify every settled receipt of the week and deliver a digest per service.',
  status: 'open',
  posted_on: '2026-11-20',
  deadline: '2027-01-15T23:59:59Z',
  reward: { nanoerg: '500000000', erg: '0.500000000', network: 'ergo_testnet', rail: 'ergo_testnet_note' },
  required_capabilities: ['receipt-verification', 'summarization'],
  inputs: ['https://example.org/proofs'],
  deliverable: { format: 'json', description: 'Object with receipts_covered and receipt_ids.' },
  acceptance_predicates: [
    { id: 'covers-receipts', field: '/receipts_covered', operator: 'at_least', value: 1, description: 'At least one receipt is covered.' },
    { id: 'lists-receipt-ids', field: '/receipt_ids', operator: 'exists', value: true, description: 'Every covered receipt id is listed.' },
  ],
  receipt_requirements: { required: true, type: 'settlement_receipt', must_include: ['settlement_tx_id', 'note_box_id'], retention: 'local_plus_public_url' },
});
const closedJob: Job = { ...openJob, id: 'job-closed-digest', status: 'closed', deadline: '2026-10-31T23:59:59Z' };
const pastDeadlineJob: Job = { ...openJob, id: 'job-late-digest', deadline: '2026-11-01T00:00:00Z' };

const context: JobsContext = {
  matcher: compileClaimMatcher(forbiddenClaimsListSchema.parse(forbiddenClaimsContent)),
  siteOrigin: 'http://127.0.0.1:4321',
  jobs: [openJob, closedJob, pastDeadlineJob],
  now: NOW,
};

const intent: JobAcceptanceIntent = {
  job_id: openJob.id,
  agent_id: TESTNET_ADDRESS,
  agent_manifest: 'https://agent.example.org/manifest.json',
  capabilities: ['receipt-verification', 'summarization', 'chain-data-read'],
  proposed_output: {
    format: 'json',
    description: 'Digest with receipts_covered and the list of receipt ids, re-verified against the testnet.',
    predicates_addressed: ['covers-receipts', 'lists-receipt-ids'],
  },
  receipt_expectation: { required: true, type: 'settlement_receipt', includes: ['settlement_tx_id', 'note_box_id', 'task_hash'] },
  evidence: { links: [{ kind: 'proof_explorer', url: 'https://agent.example.org/proofs' }], receipt_ids: [RECEIPT_ID] },
  posture: { network: 'ergo_testnet', mainnet_ready: false, production_custody: false },
};

const quoteRequest: JobQuoteRequest = {
  job_id: openJob.id,
  agent_id: TESTNET_ADDRESS,
  quote_terms: { amount: '0.450000000', currency: 'ERG_testnet', delivery_deadline: '2026-12-20T18:00:00Z', valid_until: '2026-12-05T18:00:00Z' },
  receipt_expectation: { required: true, type: 'settlement_receipt', includes: ['settlement_tx_id', 'note_box_id'] },
  settlement: { rail: 'ergo_testnet_note', payee_address: TESTNET_ADDRESS, binds_task_hash: true },
  evidence: { links: [], receipt_ids: [RECEIPT_ID] },
  posture: { network: 'ergo_testnet', mainnet_ready: false, production_custody: false },
};

type Json = Record<string, any>;
const variant = <T>(base: T, mutate: (body: Json) => void): unknown => {
  const body = structuredClone(base) as Json;
  mutate(body);
  return body;
};
const blake2bOfCanonical = (value: unknown) => hex.encode(blake2b256(utf8.decode(canonicalize(value)!)));

const seen = { accept: new Set<string>(), quote: new Set<string>() };
const accept = (body: unknown, at: JobsContext = context) => {
  const outcome = checkAcceptanceIntent(body, at);
  for (const finding of [...outcome.errors, ...outcome.warnings]) seen.accept.add(finding.code);
  return outcome;
};
const quote = (body: unknown, at: JobsContext = context) => {
  const outcome = checkQuoteRequest(body, at);
  for (const finding of [...outcome.errors, ...outcome.warnings]) seen.quote.add(finding.code);
  return outcome;
};

/** Cases both validations share: the fields they have in common, under the same codes. */
const SHARED_ERRORS: Array<[string, string, string, (body: Json) => void]> = [
  ['a missing job id', 'schema_missing_field', '/job_id', (b) => delete b.job_id],
  ['a job id of the wrong type', 'schema_invalid_type', '/job_id', (b) => (b.job_id = 7)],
  ['an empty agent id', 'schema_too_small', '/agent_id', (b) => (b.agent_id = '')],
  ['an agent id too long', 'schema_too_big', '/agent_id', (b) => (b.agent_id = 'x'.repeat(129))],
  ['an unknown key', 'schema_unknown_key', '/reward', (b) => (b.reward = '1.000000000')],
  ['an unknown evidence kind', 'schema_invalid_value', '/evidence/links/0/kind', (b) => (b.evidence.links = [{ kind: 'tweet', url: 'https://example.org/x' }])],
  ['an unknown job', 'job_unknown', '/job_id', (b) => (b.job_id = 'job-does-not-exist')],
  ['a closed job', 'job_closed', '/job_id', (b) => (b.job_id = closedJob.id)],
  ['an open job past its deadline', 'job_closed', '/job_id', (b) => (b.job_id = pastDeadlineJob.id)],
  ['no receipt', 'receipt_not_required', '/receipt_expectation/required', (b) => (b.receipt_expectation.required = false)],
  ['a weaker receipt type', 'receipt_type_weaker', '/receipt_expectation/type', (b) => (b.receipt_expectation.type = 'verification_receipt')],
  ['receipt type none', 'receipt_type_weaker', '/receipt_expectation/type', (b) => (b.receipt_expectation.type = 'none')],
  ['a receipt field left out', 'receipt_field_missing', '/receipt_expectation/includes', (b) => (b.receipt_expectation.includes = ['settlement_tx_id'])],
  ['a mainnet posture', 'posture_network_not_testnet', '/posture/network', (b) => (b.posture.network = 'ergo_mainnet')],
  ['mainnet readiness', 'posture_mainnet_ready', '/posture/mainnet_ready', (b) => (b.posture.mainnet_ready = true)],
  ['production custody', 'posture_production_custody', '/posture/production_custody', (b) => (b.posture.production_custody = true)],
  ['no evidence at all', 'evidence_missing', '/evidence', (b) => (b.evidence = { links: [], receipt_ids: [] })],
  ['an evidence link that is no URL', 'evidence_url_malformed', '/evidence/links/0/url', (b) => (b.evidence.links = [{ kind: 'receipt', url: 'my receipts' }])],
  ['an evidence link on a private host', 'evidence_url_not_public', '/evidence/links/0/url', (b) => (b.evidence.links = [{ kind: 'receipt', url: 'https://10.0.0.5/r' }])],
  ['an evidence link with credentials', 'evidence_url_credentials', '/evidence/links/0/url', (b) => (b.evidence.links = [{ kind: 'receipt', url: 'https://u:p@example.org/r' }])],
  ['a receipt id that is not hex', 'evidence_receipt_id_malformed', '/evidence/receipt_ids/0', (b) => (b.evidence.receipt_ids = ['my-first-receipt'])],
  ['a receipt id in upper case', 'evidence_receipt_id_malformed', '/evidence/receipt_ids/0', (b) => (b.evidence.receipt_ids = ['A'.repeat(64)])],
  ['a claim in the agent id', 'forbidden_claim', '/agent_id', (b) => (b.agent_id = 'audited-agent')],
  ['a claim in an unknown key', 'forbidden_claim', '/note', (b) => (b.note = 'Payout is gu\u0430ranteed: guaranteed payout')],
];

const SHARED_WARNINGS: Array<[string, string, string, (body: Json) => void]> = [
  ['a plain-http evidence link', 'evidence_url_plain_http', '/evidence/links/0/url', (b) => (b.evidence.links = [{ kind: 'receipt', url: 'http://example.org/r' }])],
  [
    'a repeated evidence link',
    'evidence_duplicate_url',
    '/evidence/links/1/url',
    (b) => (b.evidence.links = [{ kind: 'receipt', url: 'https://example.org/r' }, { kind: 'proof_explorer', url: 'https://example.org/r' }]),
  ],
];

describe('job acceptance: the valid intent', () => {
  it('passes every check and gets a deterministic accepted_job_id', () => {
    const outcome = accept(intent);
    expect(outcome.errors).toEqual([]);
    expect(outcome.warnings).toEqual([]);
    expect(outcome.jobId).toBe(openJob.id);
    expect(outcome.agentId).toBe(intent.agent_id);
    expect(outcome.acceptedJobId).toBe(blake2bOfCanonical({ job_id: intent.job_id, agent_id: intent.agent_id, content: intent }));
    expect(accept(structuredClone(intent)).acceptedJobId).toBe(outcome.acceptedJobId);
  });

  it('gives another id to another agent or other content, and the same id whatever the key order', () => {
    const id = accept(intent).acceptedJobId;
    expect(accept({ ...intent, agent_id: '3Wx6cHkTaavysMMXSqqvoCL1n273NmcH3auiHymFwTSpKDFzQfW3' }).acceptedJobId).not.toBe(id);
    expect(accept(variant(intent, (b) => (b.proposed_output.description += ' Weekly.'))).acceptedJobId).not.toBe(id);
    const reordered = Object.fromEntries(Object.entries(intent).reverse());
    expect(accept(reordered).acceptedJobId).toBe(id);
    expect(acceptedJobId(intent.job_id, intent.agent_id, intent)).toBe(id);
  });

  it('accepts a full receipt bundle where the job asks for a settlement receipt', () => {
    expect(accept(variant(intent, (b) => (b.receipt_expectation.type = 'full_receipt_bundle'))).errors).toEqual([]);
  });

  it('accepts evidence made of receipt ids only, and this site’s own loopback links', () => {
    expect(accept(variant(intent, (b) => (b.evidence.links = []))).errors).toEqual([]);
    expect(accept(variant(intent, (b) => (b.evidence.links = [{ kind: 'proof_explorer', url: 'http://127.0.0.1:4321/api/agent-economy/proofs' }]))).warnings).toEqual([]);
  });

  it('takes "not audited" in the description as a disclaimer', () => {
    expect(accept(variant(intent, (b) => (b.proposed_output.description = 'A digest. The agent is not audited and holds no custody of funds.'))).errors).toEqual([]);
  });
});

describe('job acceptance: one finding per defect', () => {
  it.each<[string, string, string, (body: Json) => void]>([
    ...SHARED_ERRORS,
    ['an agent manifest that is no URI', 'schema_invalid_format', '/agent_manifest', (b) => (b.agent_manifest = 'manifest.json')],
    ['an unknown output format', 'schema_invalid_value', '/proposed_output/format', (b) => (b.proposed_output.format = 'pdf')],
    ['a missing capability', 'capability_missing', '/capabilities', (b) => (b.capabilities = ['receipt-verification'])],
    ['another output format', 'output_format_mismatch', '/proposed_output/format', (b) => (b.proposed_output.format = 'markdown')],
    ['a predicate left out', 'output_predicate_not_addressed', '/proposed_output/predicates_addressed', (b) => (b.proposed_output.predicates_addressed = ['covers-receipts'])],
    ['a claim in the proposed output', 'forbidden_claim', '/proposed_output/description', (b) => (b.proposed_output.description = 'A risk-free, fully secure digest of receipts.')],
    ['a disguised claim', 'forbidden_claim', '/proposed_output/description', (b) => (b.proposed_output.description = 'Digest from our pr\u043Educti\u043En-\u200Bready pipeline.')],
  ])('%s: %s at %s', (_what, code, path, mutate) => {
    const outcome = accept(variant(intent, mutate));
    expect(outcome.errors).toContainEqual({ code, path, message: expect.any(String) });
    expect(outcome.acceptedJobId).toBeNull();
  });

  it.each<[string, string, string, (body: Json) => void]>([
    ...SHARED_WARNINGS,
    ['a repeated capability', 'capability_duplicate', '/capabilities/3', (b) => b.capabilities.push('summarization')],
    ['a predicate the job lacks', 'output_predicate_unknown', '/proposed_output/predicates_addressed/2', (b) => b.proposed_output.predicates_addressed.push('fast-delivery')],
  ])('warns on %s (%s at %s) without blocking', (_what, code, path, mutate) => {
    const outcome = accept(variant(intent, mutate));
    expect(outcome.warnings).toContainEqual({ code, path, message: expect.any(String) });
    expect(outcome.errors).toEqual([]);
    expect(outcome.acceptedJobId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names each missing capability and each missing predicate on its own', () => {
    const outcome = accept(variant(intent, (b) => ((b.capabilities = []), (b.proposed_output.predicates_addressed = []))));
    expect(outcome.errors.map((e) => e.code)).toEqual(['capability_missing', 'capability_missing', 'output_predicate_not_addressed', 'output_predicate_not_addressed']);
    expect(outcome.errors[0]!.message).toContain('"receipt-verification"');
    expect(outcome.errors[1]!.message).toContain('"summarization"');
  });

  it('reports every check’s findings at once, schema failures included', () => {
    const outcome = accept(
      variant(intent, (b) => {
        b.unexpected = true;
        b.job_id = closedJob.id;
        b.capabilities = ['summarization'];
        b.proposed_output.format = 'markdown';
        b.receipt_expectation.required = false;
        b.posture.mainnet_ready = true;
        b.evidence = { links: [], receipt_ids: [] };
        b.proposed_output.description = 'Escrowed and audited.';
      }),
    );
    expect(outcome.errors.map((e) => e.code)).toEqual([
      'schema_unknown_key',
      'job_closed',
      'capability_missing',
      'output_format_mismatch',
      'receipt_not_required',
      'posture_mainnet_ready',
      'evidence_missing',
      'forbidden_claim',
      'forbidden_claim',
    ]);
    expect(outcome.intent).toBeUndefined();
    expect(outcome.jobId).toBe(closedJob.id);
  });

  it('caps a flood of findings', () => {
    const outcome = accept(variant(intent, (b) => Array.from({ length: 120 }, (_, i) => (b[`k${i}`] = i))));
    expect(outcome.errors).toHaveLength(MAX_FINDINGS);
    expect(outcome.errors.at(-1)!.code).toBe('findings_truncated');
  });

  it('answers a body that is not an object with one schema finding and no ids', () => {
    const outcome = accept([intent]);
    expect(outcome.errors).toEqual([{ code: 'schema_invalid_type', path: '', message: expect.any(String) }]);
    expect([outcome.jobId, outcome.agentId, outcome.acceptedJobId]).toEqual([null, null, null]);
  });
});

describe('job quote: the valid request', () => {
  it('builds a scaffold: the agreement draft in the Agreement shape, with a task hash anyone can recompute', () => {
    const outcome = quote(quoteRequest);
    expect(outcome.errors).toEqual([]);
    expect(outcome.warnings).toEqual([]);
    expect(outcome.acceptedJobId).toBe(blake2bOfCanonical({ job_id: quoteRequest.job_id, agent_id: quoteRequest.agent_id, content: quoteRequest }));
    const draft = agreementDraftSchema.parse(outcome.agreementDraft);
    expect(draft).toMatchObject({
      quoteId: outcome.acceptedJobId,
      price: '0.450000000',
      priceNanoErg: '450000000',
      receiverAddress: TESTNET_ADDRESS,
      expiresAt: quoteRequest.quote_terms.valid_until,
    });
    expect(draft.terms).toMatchObject({
      status: 'draft_pending_operator_review',
      job_id: openJob.id,
      agent_id: quoteRequest.agent_id,
      deliverable: openJob.deliverable.description,
      deliverable_format: 'json',
      payment_rail: 'ergo_testnet_note',
      delivery_deadline: quoteRequest.quote_terms.delivery_deadline,
      acceptance_predicates: openJob.acceptance_predicates,
      receipt: quoteRequest.receipt_expectation,
    });
    expect(draft.taskHash).toBe(
      blake2bOfCanonical({
        job_id: openJob.id,
        agent_id: quoteRequest.agent_id,
        deliverable: openJob.deliverable,
        acceptance_predicates: openJob.acceptance_predicates,
        delivery_deadline: quoteRequest.quote_terms.delivery_deadline,
        receipt: quoteRequest.receipt_expectation,
      }),
    );
  });

  it('the draft’s top-level fields are the receipt Agreement’s own fields, with the same JSON Schema', () => {
    const bare = (schema: z.ZodType) => {
      const { description: _description, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
      return rest;
    };
    for (const [key, field] of Object.entries(agreementDraftSchema.shape)) {
      if (key === 'terms') continue;
      const original = (agreementSchema.shape as Record<string, z.ZodType>)[key];
      expect(original, key).toBeDefined();
      expect(bare(field), key).toEqual(bare(original!));
    }
  });

  it('quotes exactly the reward, and delivers exactly at the deadline', () => {
    const edge = variant(quoteRequest, (b) => ((b.quote_terms.amount = openJob.reward.erg), (b.quote_terms.delivery_deadline = openJob.deadline)));
    expect(quote(edge).errors).toEqual([]);
  });
});

describe('job quote: one finding per defect', () => {
  it.each<[string, string, string, (body: Json) => void]>([
    ...SHARED_ERRORS,
    ['an acceptance intent that is no URI', 'schema_invalid_format', '/acceptance_intent', (b) => (b.acceptance_intent = 'intent 42')],
    ['a delivery deadline that is no timestamp', 'schema_invalid_format', '/quote_terms/delivery_deadline', (b) => (b.quote_terms.delivery_deadline = 'next week')],
    ['an amount without nine fraction digits', 'quote_terms_malformed_amount', '/quote_terms/amount', (b) => (b.quote_terms.amount = '0.45')],
    ['an amount as a JSON number', 'quote_terms_malformed_amount', '/quote_terms/amount', (b) => (b.quote_terms.amount = 0.45)],
    ['a currency other than testnet ERG', 'quote_terms_unknown_currency', '/quote_terms/currency', (b) => (b.quote_terms.currency = 'ERG')],
    ['a zero amount', 'quote_terms_amount_not_positive', '/quote_terms/amount', (b) => (b.quote_terms.amount = '0.000000000')],
    ['one nanoERG over the reward', 'quote_terms_amount_exceeds_reward', '/quote_terms/amount', (b) => (b.quote_terms.amount = '0.500000001')],
    ['an amount beyond 2^53 nanoERG', 'quote_terms_amount_exceeds_reward', '/quote_terms/amount', (b) => (b.quote_terms.amount = '9007199254.740993000')],
    ['delivery after the job deadline', 'quote_terms_delivery_after_deadline', '/quote_terms/delivery_deadline', (b) => (b.quote_terms.delivery_deadline = '2027-01-16T00:00:00Z')],
    ['delivery in the past', 'quote_terms_delivery_passed', '/quote_terms/delivery_deadline', (b) => ((b.quote_terms.delivery_deadline = '2026-11-22T00:00:00Z'), (b.quote_terms.valid_until = '2026-11-21T00:00:00Z'))],
    ['validity running past delivery', 'quote_terms_valid_until_not_before_delivery', '/quote_terms/valid_until', (b) => (b.quote_terms.valid_until = '2026-12-20T18:00:00Z')],
    ['an expired quote', 'quote_terms_expired', '/quote_terms/valid_until', (b) => (b.quote_terms.valid_until = '2026-11-23T11:59:59Z')],
    ['an unknown settlement rail', 'settlement_unknown_rail', '/settlement/rail', (b) => (b.settlement.rail = 'lightning')],
    ['the free rail', 'settlement_rail_not_note', '/settlement/rail', (b) => (b.settlement.rail = 'free')],
    ['a payee that is no address', 'settlement_payee_invalid_address', '/settlement/payee_address', (b) => (b.settlement.payee_address = '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmax')],
    ['a mainnet payee', 'settlement_payee_not_testnet', '/settlement/payee_address', (b) => (b.settlement.payee_address = MAINNET_ADDRESS)],
    ['a Note not bound to the task', 'settlement_task_hash_not_bound', '/settlement/binds_task_hash', (b) => (b.settlement.binds_task_hash = false)],
  ])('%s: %s at %s', (_what, code, path, mutate) => {
    const outcome = quote(variant(quoteRequest, mutate));
    expect(outcome.errors).toContainEqual({ code, path, message: expect.any(String) });
    expect(outcome.acceptedJobId).toBeNull();
    expect(outcome.agreementDraft).toBeNull();
  });

  it.each<[string, string, string, (body: Json) => void]>(SHARED_WARNINGS)('warns on %s (%s at %s) without blocking', (_what, code, path, mutate) => {
    const outcome = quote(variant(quoteRequest, mutate));
    expect(outcome.warnings).toContainEqual({ code, path, message: expect.any(String) });
    expect(outcome.errors).toEqual([]);
    expect(outcome.agreementDraft).not.toBeNull();
  });

  it('judges deadlines at the instant it is given', () => {
    const later = { ...context, now: new Date('2027-01-16T00:00:00Z') };
    expect(quote(quoteRequest, later).errors.map((e) => e.code)).toEqual([
      'job_closed',
      'quote_terms_delivery_passed',
      'quote_terms_expired',
    ]);
  });

  it('reports every check’s findings at once', () => {
    const outcome = quote(
      variant(quoteRequest, (b) => {
        b.quote_terms.amount = '5.000000000';
        b.receipt_expectation.includes = [];
        b.settlement.payee_address = MAINNET_ADDRESS;
        b.posture.production_custody = true;
        b.evidence.receipt_ids = ['nope'];
        b.extra = 'Mainnet ready';
      }),
    );
    expect(outcome.errors.map((e) => e.code)).toEqual([
      'schema_unknown_key',
      'quote_terms_amount_exceeds_reward',
      'receipt_field_missing',
      'receipt_field_missing',
      'settlement_payee_not_testnet',
      'posture_production_custody',
      'evidence_receipt_id_malformed',
      'forbidden_claim',
    ]);
  });

  it('caps a flood of findings', () => {
    const outcome = quote(variant(quoteRequest, (b) => Array.from({ length: 120 }, (_, i) => (b[`k${i}`] = i))));
    expect(outcome.errors).toHaveLength(MAX_FINDINGS);
    expect(outcome.errors.at(-1)!.code).toBe('findings_truncated');
  });
});

describe('coverage of the catalogs', () => {
  // Runs last. schema_invalid is reached through the shared mapper (tests/unit/publish-validation.test.ts):
  // neither request schema can produce a zod issue outside the mapped ones.
  const viaSharedMapper = new Set(['schema_invalid']);
  it('every acceptance code was reached', () => {
    expect(ACCEPTANCE_CODES.map((entry) => entry.code).filter((code) => !seen.accept.has(code) && !viaSharedMapper.has(code))).toEqual([]);
  });
  it('every quote code was reached', () => {
    expect(QUOTE_CODES.map((entry) => entry.code).filter((code) => !seen.quote.has(code) && !viaSharedMapper.has(code))).toEqual([]);
  });
});
