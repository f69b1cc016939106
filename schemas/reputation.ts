/**
 * The reputation graph (spec 2.2): which agents and providers have testnet-settled receipts behind
 * them, derived from receipts only (never from self-description), and the receipt summary that the
 * derivation reads from the receipt store.
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, ergDecimal, hex64, isoDate, isoDateTime, nanoErgString, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';

/**
 * One stored receipt as the derivation sees it. `chain: 'sandbox'` marks receipts settled against
 * the loopback sandbox explorer (tests, local demo); they never count toward reputation.
 */
export const receiptSummarySchema = z
  .object({
    receiptId: z.string().min(1).describe('Receipt id.'),
    chain: z.enum(['testnet', 'sandbox']).describe('Where the settlement was verified; only `testnet` counts.'),
    settledAt: isoDateTime.describe('When the settlement was verified.'),
    settlementTxId: hex64.describe('Settlement transaction id.'),
    valueNanoErg: nanoErgString.describe('Value of the Note box, in nanoERG.'),
    receiverAddress: z.string().min(1).describe('The service provider the receipt credits: the address the quote was made out to.'),
    payerAddress: z
      .string()
      .min(1)
      .nullable()
      .describe('The agent that paid: the address of the first input of the settlement transaction, read from the chain when the Note was verified; null when the chain source did not know the transaction.'),
  })
  .describe('Receipt summary read by the reputation derivation.');
export type ReceiptSummary = z.infer<typeof receiptSummarySchema>;

export const SUBJECT_KINDS = ['agent', 'service_provider'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

/** Subjects or receipts a page holds at most, and by default. */
export const REPUTATION_PAGE_MAX = 200;
export const REPUTATION_PAGE_DEFAULT = 50;

const cursor = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[A-Za-z0-9_-]+$/)
  .describe('The `next_cursor` of the page before.');
const pageLimit = z.coerce
  .number()
  .int()
  .min(1)
  .max(REPUTATION_PAGE_MAX)
  .optional()
  .describe(`1 to ${REPUTATION_PAGE_MAX}; ${REPUTATION_PAGE_DEFAULT} by default.`);

/** The query of GET /api/agents/reputation. */
export const reputationQuerySchema = z.strictObject({ limit: pageLimit, cursor: cursor.optional() }).describe('Paging of the subjects.');

/** The query of GET /api/agents/reputation/evidence. */
export const reputationEvidenceQuerySchema = z
  .strictObject({
    kind: z.enum(SUBJECT_KINDS).describe('The subject\'s kind.'),
    subject_id: z.string().min(1).max(256).regex(/^[^\u0000]*$/, 'must not contain U+0000').describe('The subject\'s id: an address.'),
    limit: pageLimit,
    cursor: cursor.optional(),
  })
  .describe('Whose receipts, and which page.');

export const reputationPageSchema = z.object({
  limit: z.int().min(1).max(REPUTATION_PAGE_MAX),
  next_cursor: z.string().nullable().describe('Null on the last page.'),
  next_url: absoluteUrl.nullable().describe('Null on the last page.'),
});

export const reputationEvidenceSchema = z
  .object({
    receipt_id: z.string().describe('Receipt id.'),
    receipt_url: absoluteUrl.describe('Receipt API URL; the bundle re-verifies against the chain.'),
    settlement_tx_id: hex64.describe('Settlement transaction id on the Ergo testnet.'),
    settled_at: isoDateTime.describe('When the settlement was verified.'),
  })
  .describe('One receipt behind a subject.');

export const reputationSubjectSchema = z
  .object({
    subject_id: z.string().describe('Agent id or service provider id.'),
    kind: z.enum(SUBJECT_KINDS).describe('`service_provider`: the receiver a receipt credits; `agent`: the payer, the address that funded the Note.'),
    receipt_count: z.int().min(1).describe('Distinct testnet-settled receipts.'),
    settled_nanoerg: nanoErgString.describe('Total settled value in nanoERG.'),
    settled_erg: ergDecimal.describe('The same total in testnet ERG.'),
    first_settled_at: isoDateTime.describe('Earliest counted settlement.'),
    last_settled_at: isoDateTime.describe('Latest counted settlement.'),
    evidence: z.array(reputationEvidenceSchema).min(1).max(5).describe('Its newest receipts (up to 5).'),
    evidence_url: absoluteUrl.describe('All its receipts, a page at a time.'),
    trust_boundary: z
      .object({
        basis: z.literal('testnet_settled_receipts').describe('Constant: reputation counts testnet-settled receipts and nothing else.'),
        network: z.literal('ergo_testnet').describe('Constant.'),
        mainnet_ready: z.literal(false).describe('Constant false: testnet reputation says nothing about mainnet.'),
        statement: z.string().describe('What the reputation does and does not establish.'),
      })
      .describe('Limits of what this subject’s reputation means.'),
  })
  .describe('One subject of the reputation graph.');

export const reputationGraphSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.agent_reputation.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate.describe('Date of `generated_at`.'),
    generated_at: isoDateTime.describe('When this graph was derived.'),
    description: z.string().describe('How the graph is derived.'),
    posture: postureSchema,
    method: z
      .object({
        counts: z.string().describe('What counts as a receipt-backed subject.'),
        subjects: z
          .object({
            service_provider: z.string().describe('How the service provider of a receipt is determined.'),
            agent: z.string().describe('How the paying agent of a receipt is determined.'),
          })
          .describe('How each kind of subject is read from a receipt.'),
        excludes: z.array(z.string()).min(1).describe('What never counts.'),
        receipt_api: z.string().describe('Receipt API; `{id}` is a receipt id.'),
        proofs_api: absoluteUrl.describe('Proof explorer listing the same receipts.'),
      })
      .describe('How the graph is derived, so anyone can recompute it.'),
    checkpoint: z
      .object({
        size: z.int().min(0).describe('Receipts of the first `size` log entries are counted.'),
        root_hash: z.string().describe('Root hash of that tree, base64.'),
        origin: z.string(),
        checkpoint_api: absoluteUrl.describe('The newest signed checkpoint.'),
      })
      .nullable()
      .describe('The receipt log tree the graph was derived from; null before the first checkpoint.'),
    summary: z
      .object({
        receipt_backed_subjects: z.int().min(0).describe('Subjects with at least one counted receipt.'),
        receipts_counted: z.int().min(0).describe('Distinct testnet-settled receipts counted.'),
        sandbox_receipts_excluded: z.int().min(0).describe('Receipts settled against the sandbox explorer, not counted.'),
        duplicate_receipts_ignored: z.int().min(0).describe('Repeated receipt ids counted once.'),
        receipts_without_payer: z.int().min(0).describe('Counted receipts whose payer the chain source could not name; they credit their service provider only.'),
        total_settled_nanoerg: nanoErgString.describe('Total value of the counted receipts in nanoERG (each receipt once, although it credits two subjects).'),
        latest_settled_at: isoDateTime.nullable().describe('Latest counted settlement; null when none.'),
      })
      .describe('Totals over the graph.'),
    subjects: z
      .array(reputationSubjectSchema)
      .max(REPUTATION_PAGE_MAX)
      .describe('This page of the subjects: most receipts first, then newest, then by id and kind.'),
    page: reputationPageSchema,
  })
  .describe('Reputation graph derived from testnet-settled receipts.');
export type ReputationGraph = z.infer<typeof reputationGraphSchema>;

export const reputationEvidencePageSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.agent_reputation_evidence.v0'),
    version: versionV0,
    generated_at: isoDateTime.describe('When this page was read.'),
    kind: z.enum(SUBJECT_KINDS),
    subject_id: z.string().describe('The subject.'),
    receipt_count: z.int().min(1).describe('Its counted receipts in all.'),
    checkpoint: reputationGraphSchema.shape.checkpoint,
    evidence: z.array(reputationEvidenceSchema).max(REPUTATION_PAGE_MAX).describe('This page of its receipts, newest first.'),
    page: reputationPageSchema,
  })
  .describe('The receipts behind one subject of the reputation graph, a page at a time.');
export type ReputationEvidencePage = z.infer<typeof reputationEvidencePageSchema>;
