/**
 * The reputation graph body: the pure derivation of `src/domain/reputation.ts` turned into the
 * published shape, with receipt URLs and the trust boundary of every subject.
 */
import type { ReputationGraph } from '../../schemas/reputation.ts';
import type { ReputationDerivation } from '../domain/reputation.ts';
import { formatNanoErg } from '../domain/money.ts';
import { routeUrl } from '../catalogue/lookup.ts';
import { descriptorHeader, POSTURE } from './common.ts';

const SUBJECT_TRUST_STATEMENT =
  'Counts payments that settled on the Ergo testnet, as recorded by the receipts this site verified when it settled them (anyone can re-verify a receipt; the graph is not re-verified per request); it says nothing about mainnet, about the quality of answers or work, or about any claim the subject makes for itself.';

export function buildReputationGraph(derivation: ReputationDerivation, generatedAt: Date, checkpoint: ReputationGraph['checkpoint']): ReputationGraph {
  const receiptApi = routeUrl('assistant-receipt');
  const receiptUrl = (receiptId: string) => receiptApi.replace('{id}', encodeURIComponent(receiptId));
  const generated = generatedAt.toISOString();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_reputation.v0', generated.slice(0, 10)),
    generated_at: generated,
    description:
      'Agents and service providers with receipts settled on the Ergo testnet, each with the receipts behind it. Derived on every request from the receipts of the receipt log\'s newest signed checkpoint (named in `checkpoint`); self-description, listings and sandbox settlements never count.',
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
      receipt_api: receiptApi,
      proofs_api: routeUrl('proofs'),
    },
    checkpoint,
    summary: {
      receipt_backed_subjects: derivation.subjects.length,
      receipts_counted: derivation.receiptsCounted,
      sandbox_receipts_excluded: derivation.sandboxReceiptsExcluded,
      duplicate_receipts_ignored: derivation.duplicateReceiptsIgnored,
      receipts_without_payer: derivation.receiptsWithoutPayer,
      total_settled_nanoerg: derivation.totalSettledNanoErg.toString(),
      latest_settled_at: derivation.latestSettledAt,
    },
    subjects: derivation.subjects.map((subject) => ({
      subject_id: subject.subjectId,
      kind: subject.kind,
      receipt_count: subject.receiptCount,
      settled_nanoerg: subject.settledNanoErg.toString(),
      settled_erg: formatNanoErg(subject.settledNanoErg),
      first_settled_at: subject.firstSettledAt,
      last_settled_at: subject.lastSettledAt,
      evidence: subject.evidence.map((item) => ({
        receipt_id: item.receiptId,
        receipt_url: receiptUrl(item.receiptId),
        settlement_tx_id: item.settlementTxId,
        settled_at: item.settledAt,
      })),
      trust_boundary: {
        basis: 'testnet_settled_receipts',
        network: 'ergo_testnet',
        mainnet_ready: false,
        statement: SUBJECT_TRUST_STATEMENT,
      },
    })),
  };
}
