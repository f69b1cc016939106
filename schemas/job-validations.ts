/**
 * The two validations an agent runs before taking a job (spec 2.9): the acceptance intent and the
 * quote request, with their results, the agreement draft and the settlement handoff.
 */
import { z } from 'zod';
import {
  declaredPostureSchema,
  evidenceLinkSchema,
  paymentRailSchema,
  receiptExpectationSchema,
  validationOutcomeShape,
} from './agent-common.ts';
import { digestHex } from './assistant.ts';
import { agreementSchema } from './receipt.ts';
import {
  absoluteUrl,
  ergDecimal,
  isoDateTime,
  nanoErgString,
  typeLiteral,
  versionV0,
} from './common.ts';
import { acceptancePredicateSchema } from './jobs.ts';

export const jobReceiptExpectationSchema = receiptExpectationSchema
  .extend({
    includes: z
      .array(z.string().min(1).max(64))
      .max(16)
      .describe('Receipt fields the agent will deliver; must cover the job’s `receipt_requirements.must_include`.'),
  })
  .describe('The receipt the agent commits to leave.');

export const submittedEvidenceSchema = z
  .strictObject({
    links: z.array(evidenceLinkSchema).max(16).describe('Public evidence of the agent’s past work.'),
    receipt_ids: z.array(z.string().min(1).max(128)).max(32).describe('Ids of receipts the agent earned before, re-checkable at the receipt API.'),
  })
  .describe('Evidence the agent offers; the evidence check requires at least one link or receipt id.');

/** Spec 2.9 acceptance intent. */
export const jobAcceptanceIntentSchema = z
  .strictObject({
    job_id: z.string().min(1).max(64).describe('Id of an open job on the board.'),
    agent_id: z.string().min(1).max(128).describe('Stable identifier of the agent: its registry service id or a testnet address.'),
    agent_manifest: z.url().max(2048).optional().describe('URI of the agent’s service manifest, when it has one.'),
    capabilities: z.array(z.string().min(1).max(64)).max(32).describe('Capabilities the agent declares; must cover the job’s required capabilities.'),
    proposed_output: z
      .strictObject({
        format: z.enum(['json', 'markdown']).describe('Format the agent will deliver; must equal the job’s deliverable format.'),
        description: z.string().min(1).max(2000).describe('What the agent will deliver.'),
        predicates_addressed: z
          .array(z.string().min(1).max(64))
          .max(32)
          .describe('Ids of the job’s acceptance predicates the output will satisfy; all of them are required.'),
      })
      .describe('The output the agent proposes.'),
    receipt_expectation: jobReceiptExpectationSchema,
    evidence: submittedEvidenceSchema,
    posture: declaredPostureSchema,
  })
  .describe('Job acceptance intent (spec 2.9): an agent states it will do a job, for operator review.');
export type JobAcceptanceIntent = z.infer<typeof jobAcceptanceIntentSchema>;

/** How `accepted_job_id` is computed, for acceptance intents and quote requests alike. */
export const ACCEPTED_JOB_ID_DERIVATION = 'blake2b256(rfc8785({job_id, agent_id, content}))';

const acceptedJobId = digestHex.describe(`${ACCEPTED_JOB_ID_DERIVATION}, 64 lower-case hex.`);

/** Response of POST /api/jobs/accept, for 200 (accepted for review) and 400 (blocked) alike. */
export const jobAcceptanceResultSchema = z
  .object({
    type: typeLiteral('agent_economy.agent_job_acceptance.v0'),
    version: versionV0,
    accepted_for_operator_review: z.boolean().describe('True when no check blocked the intent; nothing is assigned until the operator reviews it.'),
    accepted_job_id: acceptedJobId.nullable().describe(
      `Deterministic id of this acceptance, ${ACCEPTED_JOB_ID_DERIVATION} where content is the intent as validated: the same intent always gets the same id. Null when blocked.`,
    ),
    job_id: z.string().nullable().describe('The `job_id` of the submission when it is a string; null otherwise.'),
    agent_id: z.string().nullable().describe('The `agent_id` of the submission when it is a string; null otherwise.'),
    assigned: z.literal(false).describe('Constant false: validation never assigns a job.'),
    checked_at: isoDateTime.describe('When the validation ran.'),
    ...validationOutcomeShape,
  })
  .describe('Job acceptance result: accepted for operator review or blocked, with every finding.');
export type JobAcceptanceResult = z.infer<typeof jobAcceptanceResultSchema>;

/** Spec 2.9 quote request. */
export const jobQuoteRequestSchema = z
  .strictObject({
    job_id: z.string().min(1).max(64).describe('Id of an open job on the board.'),
    agent_id: z.string().min(1).max(128).describe('The agent that accepted the job.'),
    acceptance_intent: z.url().max(2048).optional().describe('URI of the acceptance intent this quote follows, when it is published.'),
    quote_terms: z
      .strictObject({
        amount: ergDecimal.describe('Price asked, in testnet ERG; at most the job reward.'),
        currency: z.literal('ERG_testnet').describe('Constant `ERG_testnet`.'),
        delivery_deadline: isoDateTime.describe('When the output will be delivered; not after the job deadline.'),
        valid_until: isoDateTime.describe('Until when the quote stands; before the delivery deadline.'),
      })
      .describe('The terms offered.'),
    receipt_expectation: jobReceiptExpectationSchema,
    settlement: z
      .strictObject({
        rail: paymentRailSchema.describe('Settlement rail; the settlement check accepts only `ergo_testnet_note` for paid jobs.'),
        payee_address: z.string().min(1).max(120).describe('Ergo testnet address (P2PK addresses start with `3`) that receives the Note.'),
        binds_task_hash: z.boolean().describe('Must be true: the settlement Note carries the task hash of the agreement in a register.'),
      })
      .describe('How the reward is settled.'),
    evidence: submittedEvidenceSchema,
    posture: declaredPostureSchema,
  })
  .describe('Job quote request (spec 2.9): the terms an agent proposes for a job it accepted.');
export type JobQuoteRequest = z.infer<typeof jobQuoteRequestSchema>;

/** How the task hash of a job agreement is computed; the settlement Note carries this hash. */
export const JOB_TASK_HASH_DERIVATION = 'blake2b256(rfc8785({job_id, agent_id, deliverable, acceptance_predicates, delivery_deadline, receipt}))';

export const jobAgreementTermsSchema = z
  .object({
    status: z.literal('draft_pending_operator_review').describe('Constant: the draft binds nobody until the operator reviews it.'),
    job_id: z.string().describe('The job.'),
    agent_id: z.string().describe('The agent that delivers.'),
    deliverable: z.string().min(1).describe('What the payment buys: the job’s deliverable as the jobs board describes it.'),
    deliverable_format: z.enum(['json', 'markdown']).describe('Format of the delivered output.'),
    payment_rail: z.literal('ergo_testnet_note').describe('Paid by a Note box on the Ergo testnet whose register holds `taskHash`.'),
    delivery_deadline: isoDateTime.describe('When the output is delivered at the latest.'),
    acceptance_predicates: z.array(acceptancePredicateSchema).min(1).describe('The job’s acceptance predicates, all of which the output must meet.'),
    receipt: jobReceiptExpectationSchema.describe('Receipt the settlement leaves.'),
    task_hash_derivation: z
      .literal(JOB_TASK_HASH_DERIVATION)
      .describe('How `taskHash` is computed: blake2b256 of the RFC 8785 canonical JSON of these terms’ job_id, agent_id, deliverable ({format, description}), acceptance_predicates, delivery_deadline and receipt.'),
  })
  .describe('The terms of the job agreement.');

/**
 * The agreement draft of a job quote, in the shape of the Agreement part of an assistant receipt
 * bundle (schemas/receipt.ts `agreementSchema`): its top-level fields are that schema's own fields
 * (same names, same formats), so a reader of receipt agreements reads drafts too. It is a subset:
 * `reserveBoxId`, `noteExpiryMinHeight`, `minConfirmations` and `issuedHeight` need the chain and a
 * reserve box, which a draft built for operator review has not got; `terms` carries the job's terms
 * as the receipt agreement's carries the assistant quote's.
 */
export const agreementDraftSchema = z
  .object({
    quoteId: agreementSchema.shape.quoteId.describe('Id of the quote the draft comes from: the `accepted_job_id` of the quote result.'),
    taskHash: agreementSchema.shape.taskHash.describe(`Task hash the settlement Note must carry in a register: ${JOB_TASK_HASH_DERIVATION}.`),
    price: agreementSchema.shape.price.describe('Agreed price in testnet ERG, nine fraction digits (the quoted amount).'),
    priceNanoErg: agreementSchema.shape.priceNanoErg.describe('The same price in nanoERG.'),
    receiverAddress: agreementSchema.shape.receiverAddress.describe('Testnet address the Note pays (the agent’s payee address).'),
    // The timestamp shape itself described, not the agreement's described copy: the document then refers to IsoDateTime instead of writing its pattern again.
    expiresAt: isoDateTime.describe('Until when the quote stands (`quote_terms.valid_until`).'),
    terms: jobAgreementTermsSchema,
  })
  .describe('Agreement draft: the Agreement shape of assistant receipts, assembled from the job and the quote terms, pending operator review.');
export type AgreementDraft = z.infer<typeof agreementDraftSchema>;

export const settlementHandoffSchema = z
  .object({
    rail: z.literal('ergo_testnet_note').describe('Settlement with a Note box on the Ergo testnet.'),
    payee_address: z.string().describe('Testnet address that receives the Note.'),
    amount_nanoerg: nanoErgString.describe('Minimum value of the Note box.'),
    task_hash: digestHex.describe('Task hash a register of the Note box must hold (the agreement draft’s `taskHash`).'),
    note_requirements: z.array(z.string()).min(1).describe('Conditions the Note box must meet to settle the agreement.'),
    signer: z.literal('host_wallet').describe('The payer’s host wallet signs; this service never does.'),
    policy_check: absoluteUrl.describe('Run the payment through the policy check before the host signs.'),
    escrowed: z.literal(false).describe('Constant false: no value is held by this service.'),
    statement: z.string().min(1).describe('What the handoff is and is not: nothing escrowed, nothing signed, nothing assigned.'),
  })
  .describe('What the payer’s wallet needs to settle, handed over without signing or holding anything.');

/** Response of POST /api/jobs/quote, for 200 (scaffold ready) and 400 (blocked) alike. */
export const jobQuoteResultSchema = z
  .object({
    type: typeLiteral('agent_economy.agent_job_quote.v0'),
    version: versionV0,
    quote_scaffold_ready: z.boolean().describe('True when no check blocked the request; no work is assigned and no value escrowed.'),
    accepted_job_id: acceptedJobId.nullable().describe(
      `Deterministic id of this quote, ${ACCEPTED_JOB_ID_DERIVATION} where content is the quote request as validated; also the \`quoteId\` of the agreement draft. Null when blocked.`,
    ),
    job_id: z.string().nullable().describe('The `job_id` of the submission when it is a string; null otherwise.'),
    agent_id: z.string().nullable().describe('The `agent_id` of the submission when it is a string; null otherwise.'),
    assigned: z.literal(false).describe('Constant false: validation never assigns a job.'),
    checked_at: isoDateTime.describe('When the validation ran.'),
    quote: z
      .object({
        agreement_draft: agreementDraftSchema,
        settlement_handoff: settlementHandoffSchema,
      })
      .nullable()
      .describe('The quote scaffold; null when blocked.'),
    ...validationOutcomeShape,
  })
  .describe('Job quote result: a quote scaffold (agreement draft and settlement handoff) or the findings that block it.');
export type JobQuoteResult = z.infer<typeof jobQuoteResultSchema>;
