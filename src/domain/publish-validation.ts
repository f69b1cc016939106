/**
 * The publish validation (POST /api/agents/publish): is a service manifest ready for operator
 * review, and if not, everything that stands in the way. Checks run in the order the publish guide
 * lists them (schema, posture, payment, predicate, evidence, forbidden claims), each on whatever
 * part of the body is well formed, and every finding is reported at once. Pure; nothing is
 * published, whatever the outcome.
 */
import { serviceManifestSchema, type ServiceManifest } from '../../schemas/registry.ts';
import { formatNanoErg, parseErgDecimal } from './money.ts';
import {
  addEvidenceUrlFindings,
  EVIDENCE_URL_CODES,
  FindingList,
  forbiddenClaimsCheck,
  postureCheck,
  schemaCheck,
  stringField,
  submissionState,
  type Finding,
  type SchemaOverride,
  type SubmissionContext,
  type SubmissionState,
} from './submission-findings.ts';
import { catalogueOf, check, codeOf } from './validation-check.ts';

/** All the ERG that will ever exist (the emission schedule's total): no honest price exceeds it. */
export const ERG_TOTAL_SUPPLY_NANOERG = 97_739_924_000_000_000n;

const NOTE_RAIL = 'ergo_testnet_note';
const FREE_RAIL = 'free';

/** Schema failures that the payment and evidence checks own, so they carry those checks' codes. */
const OVERRIDES: readonly SchemaOverride[] = [
  { pointer: /^\/accepted_payment_rails\/\d+$/, code: 'payment_unknown_rail', hint: `accepted rails are "${NOTE_RAIL}" and "${FREE_RAIL}"` },
  { pointer: /^\/pricing\/amount$/, code: 'payment_malformed_price', hint: 'write the price in testnet ERG as a string with exactly nine fraction digits, e.g. "0.010000000"' },
  { pointer: /^\/pricing\/currency$/, code: 'payment_unknown_currency', hint: 'the only currency is "ERG_testnet"' },
  { pointer: /^\/evidence\/\d+\/url$/, code: 'evidence_url_malformed', hint: 'link evidence with an absolute http(s) URL anyone can open' },
];

export interface PublishCheck {
  /** The manifest as validated; undefined when the body fails its schema. */
  manifest: ServiceManifest | undefined;
  /** `id` of the submission when it is a string, valid or not. */
  serviceId: string | null;
  errors: Finding[];
  warnings: Finding[];
}

type PublishState = SubmissionState<ServiceManifest> & { context: SubmissionContext };

const paymentCheck = check<PublishState>(
  [
    codeOf('payment', 'error', 'payment_unknown_rail', 'An accepted payment rail is not one of `ergo_testnet_note` and `free`.'),
    codeOf('payment', 'error', 'payment_malformed_price', 'pricing.amount is not a non-negative decimal string with exactly nine fraction digits.'),
    codeOf('payment', 'error', 'payment_unknown_currency', 'pricing.currency is not `ERG_testnet`.'),
    codeOf('payment', 'error', 'payment_price_exceeds_supply', 'pricing.amount is more than all the ERG that will ever exist (97,739,924 ERG).'),
    codeOf('payment', 'error', 'payment_paid_without_note_rail', 'The price is above zero but `ergo_testnet_note` is not an accepted payment rail.'),
    codeOf('payment', 'error', 'payment_note_rail_zero_price', '`ergo_testnet_note` is accepted but the price is zero; a Note payment needs a positive price.'),
    codeOf('payment', 'error', 'payment_free_without_free_rail', 'The price is zero but `free` is not an accepted payment rail.'),
    codeOf('payment', 'error', 'payment_paid_without_receipt', 'The service is paid but its receipt expectation is not a required receipt.'),
    codeOf('payment', 'warning', 'payment_duplicate_rail', 'A payment rail is listed more than once.'),
  ],
  (findings, { parts }) => {
    const rails = parts.accepted_payment_rails;
    rails?.forEach((rail, index) => {
      if (rails.indexOf(rail) !== index) findings.add('payment_duplicate_rail', `/accepted_payment_rails/${index}`, `"${rail}" is listed more than once`);
    });
    if (!parts.pricing) return;
    const price = parseErgDecimal(parts.pricing.amount);
    if (price > ERG_TOTAL_SUPPLY_NANOERG) {
      findings.add('payment_price_exceeds_supply', '/pricing/amount', `${parts.pricing.amount} ERG is more than the ${formatNanoErg(ERG_TOTAL_SUPPLY_NANOERG)} ERG that will ever exist`);
    }
    if (rails) {
      if (price > 0n && !rails.includes(NOTE_RAIL)) {
        findings.add('payment_paid_without_note_rail', '/accepted_payment_rails', `the price is ${parts.pricing.amount} ERG, so "${NOTE_RAIL}" must be an accepted rail`);
      }
      if (price === 0n && rails.includes(NOTE_RAIL)) {
        findings.add('payment_note_rail_zero_price', '/pricing/amount', `"${NOTE_RAIL}" is accepted but the price is zero; set a positive price or accept only "${FREE_RAIL}"`);
      }
      if (price === 0n && !rails.includes(FREE_RAIL)) {
        findings.add('payment_free_without_free_rail', '/accepted_payment_rails', `the price is zero, so "${FREE_RAIL}" must be an accepted rail`);
      }
    }
    const receipt = parts.receipt_expectation;
    if (receipt && price > 0n && (!receipt.required || receipt.type === 'none')) {
      findings.add('payment_paid_without_receipt', '/receipt_expectation', 'a paid service leaves a receipt the payer can re-check: set required to true and a receipt type other than "none"');
    }
  },
);

const predicateCheck = check<PublishState>(
  [
    codeOf('predicate', 'error', 'predicate_note_binding_missing', 'The service accepts Note payments but declares no Note binding predicate (an id starting with `note-`).'),
    codeOf('predicate', 'error', 'predicate_duplicate_id', 'Two predicate requirements share an id.'),
    codeOf('predicate', 'warning', 'predicate_none_declared', 'The service declares no predicate requirement; callers cannot tell what it checks.'),
  ],
  (findings, { parts }) => {
    const predicates = parts.predicate_requirements;
    if (!predicates) return;
    const ids = predicates.map((predicate) => predicate.id);
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index)
        findings.add('predicate_duplicate_id', `/predicate_requirements/${index}/id`, `predicate id "${id}" is already used at /predicate_requirements/${ids.indexOf(id)}`);
    });
    if (parts.accepted_payment_rails?.includes(NOTE_RAIL) && !ids.some((id) => id.startsWith('note-'))) {
      findings.add(
        'predicate_note_binding_missing',
        '/predicate_requirements',
        'the service accepts Note payments, so declare how a Note is bound to the call with a predicate whose id starts with "note-" (for example note-binds-task-hash)',
      );
    } else if (predicates.length === 0) {
      findings.add('predicate_none_declared', '/predicate_requirements', 'no predicate requirement is declared; say what the service checks on every call');
    }
  },
);

const evidenceCheck = check<PublishState>(
  [
    codeOf('evidence', 'error', 'evidence_missing', 'evidence is empty; at least one public link is required.'),
    ...EVIDENCE_URL_CODES,
    codeOf('evidence', 'error', 'evidence_settlement_missing', 'A paid service links no `receipt` or `proof_explorer` evidence where its settled payments can be re-checked.'),
  ],
  (findings, { parts, context }) => {
    const evidence = parts.evidence;
    if (!evidence) return;
    if (evidence.length === 0) findings.add('evidence_missing', '/evidence', 'link at least one piece of public evidence that the service works as described');
    addEvidenceUrlFindings(
      findings,
      evidence.map((link, index) => ({ url: link.url, path: `/evidence/${index}/url` })),
      context,
    );
    const paid = parts.pricing !== undefined && parseErgDecimal(parts.pricing.amount) > 0n;
    if (paid && evidence.length > 0 && !evidence.some((link) => link.kind === 'receipt' || link.kind === 'proof_explorer')) {
      findings.add('evidence_settlement_missing', '/evidence', 'a paid service links "receipt" or "proof_explorer" evidence where its settled payments can be re-checked');
    }
  },
);

/** The publish checks in the order the publish guide lists them. */
const PUBLISH_CHECKS = [schemaCheck(OVERRIDES), postureCheck, paymentCheck, predicateCheck, evidenceCheck, forbiddenClaimsCheck] as const;

/** Every finding the publish validation can report. */
export const PUBLISH_CODES = catalogueOf(PUBLISH_CHECKS);

/** Runs every publish check on `raw`, the JSON body exactly as received. */
export function checkServiceManifest(raw: unknown, context: SubmissionContext): PublishCheck {
  const findings = new FindingList(PUBLISH_CODES);
  const { valid, ...state } = submissionState(serviceManifestSchema, raw);
  for (const each of PUBLISH_CHECKS) each.run(findings, { ...state, context });
  return { manifest: valid, serviceId: stringField(raw, 'id'), ...findings.lists() };
}
