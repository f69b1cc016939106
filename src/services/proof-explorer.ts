/**
 * The proof explorer (`GET /api/agent-economy/proofs`): one proof per stored receipt bundle with its
 * checks recomputed (offline from the bundle, and the settlement re-read from the chain source), and
 * the built-in conformance proofs (the policy engine's verdicts, the published schemas against the
 * served descriptors). Sandbox receipts are listed apart and never counted. Each receipt is also
 * checked for inclusion in the receipt log's newest checkpoint, as the store holds it now, and the log
 * itself against the store (docs/transparency-log.md). Chain reads run a few at a time within one time
 * budget; a settlement that checked is remembered, since a settled Note does not change, and the
 * whole answer is shared for a few seconds like live status. A receipt's offline checks are a
 * function of its stored text alone, so they are kept by that text from one build to the next.
 */
import { readFileSync } from 'node:fs';
import type { ProofExplorer } from '../../schemas/live.ts';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { schemaConformanceReportSchema, SCHEMA_CONFORMANCE_FILE, type SchemaConformanceReport } from '../../schemas/schema-conformance-report.ts';
import { buildProofExplorer } from '../descriptors/live.ts';
import { policyConformanceChecks } from '../domain/policy-conformance.ts';
import { receiptOfflineChecks, settlementCheck, SETTLEMENT_CHECK, type ProofCheck } from '../domain/receipt-proof.ts';
import { receiptProofUrl, receiptUrl, routeUrl } from '../catalogue/lookup.ts';
import { PROOF_CHAIN_BUDGET_MS, PROOF_RECEIPT_LIMIT, PROOFS_CACHE_SECONDS } from '../config/limits.ts';
import type { AssistantStore, ChainClient, StoredReceiptText } from '../domain/ports.ts';
import { withLogEntry } from '../domain/receipt-log-entry.ts';
import { pooled, turnTaker } from '../lib/loop-turns.ts';
import { answerEvery } from '../lib/shared-answers.ts';
import { logger } from './logger.ts';
import type { ReceiptLog } from './receipt-log.ts';
import { RECEIPT_LOG_PATH } from '../config/receipt-log.ts';
import { site } from '../config/site.ts';

type Proof = ProofExplorer['proofs'][number];

/** A stored receipt text read back and checked offline: the bundle frozen, its log entry kept with it. */
interface CheckedText {
  bundle: ReceiptBundle;
  offline: readonly ProofCheck[];
}

const CHAIN_CONCURRENCY = 8;
/** Milliseconds of receipt checks the build runs between two turns of the event loop. */
const BUILD_SLICE_MS = 4;

export interface ProofSources {
  store: AssistantStore;
  chain: ChainClient;
  receiptLog: Pick<ReceiptLog, 'origin' | 'verifierKey' | 'witnesses' | 'witnessQuorum' | 'inclusionOf' | 'health'>;
}

/**
 * The build's schema conformance report, found beside the server bundle (`dist/server`). Under
 * `astro dev` or in a test run from sources there is none, and the proof says so.
 */
export function loadSchemaConformance(url: URL = new URL(`./${SCHEMA_CONFORMANCE_FILE}`, import.meta.url)): SchemaConformanceReport | undefined {
  try {
    return schemaConformanceReportSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
  } catch {
    return undefined;
  }
}

function conformanceProofs(report: SchemaConformanceReport | undefined, now: Date): Proof[] {
  const verifiedAt = now.toISOString();
  return [
    {
      id: 'policy-engine-verdicts',
      kind: 'conformance',
      subject: 'The wallet-agent policy engine allows the published safe example and denies each unsafe variant of spec 4.3 with its own reason.',
      checks: policyConformanceChecks(now),
      verified_at: verifiedAt,
      links: { contract: routeUrl('policy-check-contract'), policy_check: routeUrl('policy-check') },
    },
    {
      id: 'published-schemas-validate-descriptors',
      kind: 'conformance',
      subject: 'Every static descriptor this build serves validates against the JSON Schema 2020-12 document it publishes for it.',
      checks: report
        ? report.checks.map(({ id, ok, detail }) => ({ id, ok, detail }))
        : [{ id: 'build_report', ok: false, detail: `No ${SCHEMA_CONFORMANCE_FILE} beside the server bundle: this server was not started from \`npm run build\` output.` }],
      verified_at: report?.generated_at ?? verifiedAt,
      links: { openapi: routeUrl('openapi') },
    },
  ];
}

export interface ProofExplorerService {
  /** The proofs; a build this call starts logs its chain failures under `requestId`. */
  proofs: (requestId?: string) => Promise<ProofExplorer>;
}

/** The chain budget ran out before the chain answered: said in our words, so it may be shown. */
class ChainBudgetSpent extends Error {}

export interface ProofExplorerOptions {
  /** The build's schema conformance report. */
  report?: () => SchemaConformanceReport | undefined;
  chainBudgetMs?: number;
}

/** `sources` yields the store and chain client. */
export function createProofExplorer(sources: () => Promise<ProofSources>, options: ProofExplorerOptions = {}): ProofExplorerService {
  const report = options.report ?? loadSchemaConformance;
  const chainBudgetMs = options.chainBudgetMs ?? PROOF_CHAIN_BUDGET_MS;
  /**
   * Settlement checks that passed, by receipt id and Note: a settled Note does not change, so the
   * chain is read once per receipt. Everything read from the store (the bundle's own checks, its log
   * inclusion) is read afresh on every build, since a stored receipt can be changed under the server,
   * and checked again whenever its stored text is not the one checked last time.
   */
  const settled = new Map<string, ProofCheck>();
  /**
   * The last build's receipts by their stored text. Reading back and checking 200 bundles every few
   * seconds was most of the build's garbage, and its collection held the event loop 20 to 40 ms at a
   * time under load. The checks depend on nothing but the text, so a text seen before keeps them,
   * and one changed in the store by a byte is a text not seen before. Only the last build's are kept.
   */
  let checkedTexts = new Map<string, CheckedText>();

  function checkedText(stored: StoredReceiptText): CheckedText {
    const known = checkedTexts.get(stored.text);
    if (known) return known;
    const bundle = withLogEntry(stored.bundle());
    return { bundle, offline: receiptOfflineChecks(JSON.stringify(bundle)) };
  }

  /**
   * One receipt's proof. A chain source that fails is named in the check, and what it said (its
   * URL, the transport's error) is handed to `failed` for the log.
   */
  async function receiptProof({ bundle, offline }: CheckedText, { chain, receiptLog }: ProofSources, deadline: number, now: Date, failed: (cause: unknown) => void): Promise<Proof> {
    const checks: ProofCheck[] = [...offline];
    const source = { name: bundle.chain, explorerUrl: chain.explorerUrl };
    const settledKey = `${bundle.receiptId}:${bundle.noteBoxId}`;
    const known = settled.get(settledKey);
    if (known) {
      checks.push(known);
    } else if (bundle.chain !== chain.source) {
      checks.push({ id: SETTLEMENT_CHECK, ok: false, detail: `This instance reads the ${chain.source} chain, so the ${bundle.chain} settlement cannot be re-checked here.` });
    } else {
      const remaining = deadline - Date.now();
      try {
        if (remaining <= 0) throw new ChainBudgetSpent(`no time left of the ${chainBudgetMs} ms chain budget`);
        let timer: NodeJS.Timeout | undefined;
        const box = await Promise.race([
          chain.getBox(bundle.noteBoxId),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new ChainBudgetSpent(`no answer within the ${chainBudgetMs} ms chain budget`)), remaining);
          }),
        ]).finally(() => clearTimeout(timer));
        const check = settlementCheck(bundle, box, source);
        if (check.ok) settled.set(settledKey, check);
        checks.push(check);
      } catch (error) {
        if (error instanceof ChainBudgetSpent) {
          checks.push({ id: SETTLEMENT_CHECK, ok: false, detail: `The ${bundle.chain} chain source could not be read: ${error.message}.` });
        } else {
          failed(error);
          checks.push({ id: SETTLEMENT_CHECK, ok: false, detail: `The ${bundle.chain} chain source could not be read: it could not be reached or failed; the cause is in this service's log.` });
        }
      }
    }
    const inclusion = await receiptLog.inclusionOf(bundle);
    checks.push(inclusion.check);
    const proof: Proof = {
      id: bundle.receiptId,
      kind: bundle.chain === 'sandbox' ? 'sandbox_receipt' : 'testnet_receipt',
      subject: `Paid assistant turn settled by Note ${bundle.noteBoxId} in transaction ${bundle.settlementTxId} on the ${bundle.chain} chain.`,
      checks,
      verified_at: now.toISOString(),
      links: {
        receipt: receiptUrl(bundle.receiptId),
        note_box: `${chain.explorerUrl}/api/v1/boxes/${bundle.noteBoxId}`,
        ...(inclusion.index === null ? {} : { log_proof: receiptProofUrl(bundle.receiptId) }),
      },
      log_index: inclusion.index,
    };
    return proof;
  }

  async function logSection(receiptLog: ProofSources['receiptLog']): Promise<ProofExplorer['receipt_log']> {
    const health = await receiptLog.health();
    return {
      origin: receiptLog.origin,
      verifier_key: receiptLog.verifierKey,
      checkpoint_url: routeUrl('receipt-log-checkpoint'),
      key_url: routeUrl('receipt-log-key'),
      tiles_url: `${site.base_url}${RECEIPT_LOG_PATH}/tile/`,
      witnesses: receiptLog.witnesses.map(({ verifierKey, url }) => ({ verifier_key: verifierKey, url })),
      witness_quorum: receiptLog.witnessQuorum,
      checkpoint: health.checkpoint && { size: health.checkpoint.size, root_hash: health.checkpoint.rootHash, issued_at: health.checkpoint.issuedAt },
      entries: health.entries,
      agrees: health.ok,
      detail: health.detail,
    };
  }

  async function build(now: Date, requestId: string | undefined): Promise<ProofExplorer> {
    const parts = await sources();
    const texts = await parts.store.listReceiptTexts(PROOF_RECEIPT_LIMIT);
    const deadline = Date.now() + chainBudgetMs;
    const causes: unknown[] = [];
    const kept = new Map<string, CheckedText>();
    const receipts: ReceiptBundle[] = [];
    const [proofs, receiptLog] = await Promise.all([
      pooled(
        texts.map((stored, index) => async () => {
          const checked = checkedText(stored);
          kept.set(stored.text, checked);
          receipts[index] = checked.bundle;
          return receiptProof(checked, parts, deadline, now, (cause) => causes.push(cause));
        }),
        CHAIN_CONCURRENCY,
        turnTaker(BUILD_SLICE_MS),
      ),
      logSection(parts.receiptLog),
    ]);
    checkedTexts = kept;
    // One line for the build, not one per receipt: a chain source that is down fails them all alike.
    if (causes.length > 0) logger.warn({ reqId: requestId, receipts: causes.length, err: causes[0] }, 'proof explorer could not re-read settlements from the chain source');
    const testnet = proofs.filter((_, index) => receipts[index]!.chain === 'testnet');
    const sandbox = proofs.filter((_, index) => receipts[index]!.chain === 'sandbox');
    return buildProofExplorer([...testnet, ...conformanceProofs(report(), now)], sandbox, receiptLog, now);
  }

  // While a build runs (200 receipts' proofs and the log's health), the proofs before it are served, dated by their own verified_at.
  return { proofs: answerEvery(PROOFS_CACHE_SECONDS, (now, requestId?: string) => build(new Date(now), requestId)) };
}
