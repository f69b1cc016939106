/**
 * The reputation graph's bodies: a page of subjects (their aggregates, src/domain/reputation-fold.ts)
 * with the totals of the checkpoint they reflect, and a page of one subject's receipts, in the
 * published shape, with receipt URLs, the links to the next pages and each subject's trust boundary.
 */
import type { ReputationEvidencePage, ReputationGraph } from '../../schemas/reputation.ts';
import type { ReputationEvidence } from '../domain/reputation.ts';
import type { ReputationTotals, SubjectAggregate } from '../domain/reputation-fold.ts';
import { typeName } from '../config/site.ts';
import { formatNanoErg } from '../domain/money.ts';
import { receiptUrl, routeUrl } from '../catalogue/lookup.ts';
import { descriptorHeader, POSTURE } from './common.ts';

const SUBJECT_TRUST_STATEMENT =
  'Counts payments that settled on the Ergo testnet, as recorded by the receipts this site verified when it settled them (anyone can re-verify a receipt; the graph is not re-verified per request); it says nothing about mainnet, about the quality of answers or work, or about any claim the subject makes for itself.';

/** One page of the graph: the totals of the checkpoint it reflects, its subjects, and where the next page starts. */
export interface ReputationPage {
  totals: ReputationTotals & { duplicateReceiptsIgnored?: number };
  subjects: readonly SubjectAggregate[];
  limit: number;
  nextCursor: string | null;
}


const withQuery = (url: string, query: Record<string, string | number>) => `${url}?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`;

const evidenceEntry = (item: ReputationEvidence) => ({ receipt_id: item.receiptId, receipt_url: receiptUrl(item.receiptId), settlement_tx_id: item.settlementTxId, settled_at: item.settledAt });

/** A subject as the graph lists it: its aggregates, its newest receipts and where the rest are. */
export function reputationSubjectEntry(subject: SubjectAggregate): ReputationGraph['subjects'][number] {
  return {
    subject_id: subject.subjectId,
    kind: subject.kind,
    receipt_count: subject.receiptCount,
    settled_nanoerg: subject.settledNanoErg.toString(),
    settled_erg: formatNanoErg(subject.settledNanoErg),
    first_settled_at: subject.firstSettledAt,
    last_settled_at: subject.lastSettledAt,
    evidence: subject.latest.map(evidenceEntry),
    evidence_url: withQuery(routeUrl('reputation-evidence'), { kind: subject.kind, subject_id: subject.subjectId }),
    trust_boundary: {
      basis: 'testnet_settled_receipts',
      network: 'ergo_testnet',
      mainnet_ready: false,
      statement: SUBJECT_TRUST_STATEMENT,
    },
  };
}

export function buildReputationGraph(page: ReputationPage, generatedAt: Date, checkpoint: ReputationGraph['checkpoint']): ReputationGraph {
  const generated = generatedAt.toISOString();
  const { totals } = page;
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_reputation.v0', generated.slice(0, 10)),
    generated_at: generated,
    description:
      'Agents and service providers with receipts settled on the Ergo testnet, each with its newest receipts and where the rest are. Kept up to date per signed checkpoint of the receipt log (named in `checkpoint`), a page of subjects at a time; self-description, listings and sandbox settlements never count.',
    posture: POSTURE,
    method: {
      counts: 'Distinct receipt ids whose settlement was verified on the Ergo testnet, among the entries of the receipt log checkpoint named in `checkpoint`. Each credits two subjects: the service provider it paid and the agent that paid.',
      subjects: {
        service_provider: 'The receiver of the receipt: `agreement.receiverAddress`, the address the quote was made out to and the Note box paid.',
        agent: 'The payer: the address of the first input of the settlement transaction (`settlementTxId`), read from the chain source when the Note was verified. Anyone can recompute it from the transaction on an explorer.',
      },
      excludes: [
        'Receipts settled against the sandbox explorer used by tests and the local demo.',
        'Repeated receipt ids (each counts once).',
        'Registry listings, manifests and acceptance intents, which are claims rather than settlements.',
      ],
      receipt_api: routeUrl('assistant-receipt'),
      proofs_api: routeUrl('proofs'),
    },
    checkpoint,
    summary: {
      receipt_backed_subjects: totals.subjects,
      receipts_counted: totals.receiptsCounted,
      sandbox_receipts_excluded: totals.sandboxReceiptsExcluded,
      duplicate_receipts_ignored: totals.duplicateReceiptsIgnored ?? 0,
      receipts_without_payer: totals.receiptsWithoutPayer,
      total_settled_nanoerg: totals.totalSettledNanoErg.toString(),
      latest_settled_at: totals.latestSettledAt,
    },
    subjects: page.subjects.map(reputationSubjectEntry),
    page: {
      limit: page.limit,
      next_cursor: page.nextCursor,
      next_url: page.nextCursor === null ? null : withQuery(routeUrl('reputation'), { limit: page.limit, cursor: page.nextCursor }),
    },
  };
}

/** A page of the receipts behind one subject, newest first. */
export function buildReputationEvidencePage(
  page: { subject: SubjectAggregate; evidence: readonly ReputationEvidence[]; limit: number; nextCursor: string | null },
  generatedAt: Date,
  checkpoint: ReputationGraph['checkpoint'],
): ReputationEvidencePage {
  const { subject } = page;
  return {
    ok: true,
    type: typeName('agent_economy.agent_reputation_evidence.v0'),
    version: 'v0',
    generated_at: generatedAt.toISOString(),
    kind: subject.kind,
    subject_id: subject.subjectId,
    receipt_count: subject.receiptCount,
    checkpoint,
    evidence: page.evidence.map(evidenceEntry),
    page: {
      limit: page.limit,
      next_cursor: page.nextCursor,
      next_url: page.nextCursor === null ? null : withQuery(routeUrl('reputation-evidence'), { kind: subject.kind, subject_id: subject.subjectId, limit: page.limit, cursor: page.nextCursor }),
    },
  };
}
