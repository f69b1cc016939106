/**
 * `agent-economy reputation --from-log`: the reputation graph recomputed from the receipt log alone
 * and compared with the one the site serves, read whole (every page of subjects, every page of each
 * subject's receipts). The site names the checkpoint its graph was derived from (size and root); this reads the signed checkpoint (its signature checked with the key the
 * reader trusts), every level-0 tile and entry up to it (each entry against its leaf), checks the
 * named tree is a prefix of the signed one, then derives the graph with the site's own pure rules
 * from those entries, the payer of each testnet receipt read from the reader's chain source (the
 * first input of its settlement transaction, as the site reads it). Equal, or every difference.
 */
import { REPUTATION_PAGE_MAX, reputationEvidencePageSchema, reputationGraphSchema, type ReceiptSummary, type ReputationEvidencePage, type ReputationGraph } from '../../schemas/reputation.ts';
import { RECEIPT_LOG_PATH } from '../config/receipt-log.ts';
import { buildReputationGraph } from '../descriptors/reputation.ts';
import { deriveReputationGraph } from '../domain/reputation.ts';
import { foldedFromScratch } from '../domain/reputation-fold.ts';
import { encodeBase64 } from '../domain/tlog/base64.ts';
import { openCheckpoint, parseVerifierKey } from '../domain/tlog/note.ts';
import { TILE_WIDTH } from '../domain/tlog/tiles.ts';
import { appendToRange, rootFromSubtrees, type Hash } from '../domain/tlog/tree.ts';
import { logFailure, readEntries, readLeaves } from './log-tiles.ts';
import { CliError, fetchBytes, fetchJson, type Output } from './output.ts';

export interface ReputationOptions {
  base: string;
  /** The verifier key to trust; absent, the site's is trusted on first use. */
  logKey?: string;
  /** Reads the payer of a testnet settlement: the first input's address of `transactionId`. */
  payerOf: (transactionId: string) => Promise<string | undefined>;
  explorerUrl: string;
  json: boolean;
}

/** The graph's parts that follow from the receipts (not when it was generated). */
function comparable(graph: ReputationGraph) {
  return {
    summary: graph.summary,
    subjects: graph.subjects.map(({ trust_boundary: _boundary, evidence, ...subject }) => ({ ...subject, evidence: evidence.map(({ receipt_url: _url, ...item }) => item) })),
  };
}

/** Every difference between the two graphs, as lines; none when they agree. */
export function reputationDifferences(served: ReputationGraph, recomputed: ReputationGraph): string[] {
  const [a, b] = [comparable(served), comparable(recomputed)];
  const lines: string[] = [];
  for (const key of Object.keys(b.summary) as Array<keyof typeof b.summary>) {
    if (a.summary[key] !== b.summary[key]) lines.push(`summary.${key}: the site says ${JSON.stringify(a.summary[key])}, the log gives ${JSON.stringify(b.summary[key])}`);
  }
  const key = (subject: { kind: string; subject_id: string }) => `${subject.kind} ${subject.subject_id}`;
  const servedBy = new Map(a.subjects.map((subject) => [key(subject), subject]));
  const recomputedBy = new Map(b.subjects.map((subject) => [key(subject), subject]));
  for (const [id, subject] of recomputedBy) {
    const other = servedBy.get(id);
    if (!other) {
      lines.push(`${id}: in the log (${subject.receipt_count} receipts, ${subject.settled_nanoerg} nanoERG), missing from the site's graph`);
      continue;
    }
    for (const field of ['receipt_count', 'settled_nanoerg', 'first_settled_at', 'last_settled_at'] as const) {
      if (other[field] !== subject[field]) lines.push(`${id}: ${field} is ${JSON.stringify(other[field])} on the site, ${JSON.stringify(subject[field])} from the log`);
    }
    if (JSON.stringify(other.evidence) !== JSON.stringify(subject.evidence)) lines.push(`${id}: its evidence differs (site: ${other.evidence.map((item) => item.receipt_id.slice(0, 12)).join(', ')}; log: ${subject.evidence.map((item) => item.receipt_id.slice(0, 12)).join(', ')})`);
  }
  for (const [id, subject] of servedBy) if (!recomputedBy.has(id)) lines.push(`${id}: on the site's graph (${subject.receipt_count} receipts), not in the log`);
  if (lines.length === 0 && JSON.stringify(a.subjects.map(key)) !== JSON.stringify(b.subjects.map(key))) lines.push('the subjects are the same but in another order');
  return lines;
}

/** A receipt bundle's summary as the store reads it (src/services/store/sql-store.ts), the payer from the chain. */
function summaryOf(entry: Uint8Array, index: number): Omit<ReceiptSummary, 'payerAddress'> {
  let bundle: { receiptId?: unknown; chain?: unknown; settlementTxId?: unknown; verification_receipt?: { checkedAt?: unknown }; settlement_receipt?: { valueNanoErg?: unknown }; agreement?: { receiverAddress?: unknown } };
  try {
    bundle = JSON.parse(new TextDecoder().decode(entry));
  } catch {
    throw logFailure(`entry ${index} is not JSON`);
  }
  const fields = [bundle.receiptId, bundle.chain, bundle.settlementTxId, bundle.verification_receipt?.checkedAt, bundle.settlement_receipt?.valueNanoErg, bundle.agreement?.receiverAddress];
  if (fields.some((field) => typeof field !== 'string') || (bundle.chain !== 'testnet' && bundle.chain !== 'sandbox')) throw logFailure(`entry ${index} is not a receipt bundle the graph can read`);
  const [receiptId, chain, settlementTxId, settledAt, valueNanoErg, receiverAddress] = fields as string[];
  return { receiptId: receiptId!, chain: chain as 'testnet' | 'sandbox', settlementTxId: settlementTxId!, settledAt: settledAt!, valueNanoErg: valueNanoErg!, receiverAddress: receiverAddress! };
}

/** Pages read before the graph is taken as moving too fast to read whole (each page must name one checkpoint). */
const READ_ATTEMPTS = 3;

/**
 * The whole graph the site serves: every page of subjects, and every receipt of each subject
 * (its evidence pages), all naming one checkpoint; read again when the graph moved on meanwhile.
 */
async function readServedGraph(base: string): Promise<ReputationGraph> {
  const parsed = async <T>(url: string, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } } }, what: string): Promise<T> => {
    const answer = await fetchJson(url);
    const problem = answer?.body as { code?: unknown; folded?: unknown; log_size?: unknown } | undefined;
    if (answer?.status === 503 && problem?.code === 'reputation_catching_up') {
      throw new CliError(`${url}: the site is still folding its receipt log into the reputation (${String(problem.folded)} of ${String(problem.log_size)} entries); run this again in a few seconds`);
    }
    const result = schema.safeParse(answer?.body);
    if (!result.success) throw new CliError(`${url} is not ${what}: ${result.error.issues[0]?.message ?? 'unknown shape'}`);
    return result.data;
  };
  const sameTree = (a: ReputationGraph['checkpoint'], b: ReputationGraph['checkpoint']) => JSON.stringify(a) === JSON.stringify(b);
  for (let attempt = 1; ; attempt++) {
    const first = await parsed(`${base}/api/agents/reputation?limit=${REPUTATION_PAGE_MAX}`, reputationGraphSchema, 'a reputation graph');
    const subjects = [...first.subjects];
    let moved = false;
    for (let cursor = first.page.next_cursor; cursor !== null && !moved; ) {
      const page = await parsed(`${base}/api/agents/reputation?limit=${REPUTATION_PAGE_MAX}&cursor=${cursor}`, reputationGraphSchema, 'a reputation graph');
      moved = !sameTree(page.checkpoint, first.checkpoint);
      subjects.push(...page.subjects);
      cursor = page.page.next_cursor;
    }
    for (const subject of subjects) {
      if (moved || subject.evidence.length >= subject.receipt_count) continue;
      const evidence: ReputationGraph['subjects'][number]['evidence'] = [];
      for (let cursor: string | null = ''; cursor !== null && !moved; ) {
        const query: URLSearchParams = new URLSearchParams({ kind: subject.kind, subject_id: subject.subject_id, limit: String(REPUTATION_PAGE_MAX), ...(cursor ? { cursor } : {}) });
        const page: ReputationEvidencePage = await parsed(`${base}/api/agents/reputation/evidence?${query}`, reputationEvidencePageSchema, 'a page of reputation evidence');
        moved = !sameTree(page.checkpoint, first.checkpoint);
        evidence.push(...page.evidence);
        cursor = page.page.next_cursor;
      }
      subject.evidence = evidence;
    }
    if (!moved) return { ...first, subjects };
    if (attempt === READ_ATTEMPTS) throw new CliError(`${base}/api/agents/reputation moved to a newer checkpoint while it was read, ${READ_ATTEMPTS} times: try again`);
  }
}

export async function reputationFromLog(options: ReputationOptions, output: Output): Promise<number> {
  const logUrl = `${options.base}${RECEIPT_LOG_PATH}`;
  const served = await readServedGraph(options.base);

  let verifierKey = options.logKey;
  if (!verifierKey) {
    const answer = await fetchBytes(`${logUrl}/key`);
    const key = answer.text.trim();
    if (answer.status !== 200 || !parseVerifierKey(key).ok) throw logFailure(`${logUrl}/key answered HTTP ${answer.status} without a verifier key`);
    verifierKey = key;
    output.err(`trusting the site's verifier key on first use: ${key} (pass --log-key to pin it)`);
  }
  const origin = verifierKey.slice(0, verifierKey.indexOf('+'));
  const checkpointAnswer = await fetchBytes(`${logUrl}/checkpoint`);
  if (checkpointAnswer.status !== 200) throw logFailure(`${logUrl}/checkpoint answered HTTP ${checkpointAnswer.status}`);
  const opened = openCheckpoint(checkpointAnswer.text, verifierKey, origin);
  if (!opened.ok) throw logFailure(`the checkpoint ${logUrl}/checkpoint serves is refused: ${opened.reason}`);
  const signed = opened.checkpoint;

  const named = served.checkpoint ?? { size: 0, root_hash: encodeBase64(rootFromSubtrees([])) };
  if (named.size > signed.size) throw logFailure(`the reputation graph names a tree of ${named.size} entries, larger than the signed checkpoint (${signed.size})`);

  // Every leaf of the signed tree, so its root is checked; the named tree must be its first entries.
  const { leaves, tiles } = await readLeaves(logUrl, 0, signed.size);
  let range: Hash[] = [];
  let namedRoot = rootFromSubtrees([]);
  leaves.forEach((leaf, index) => {
    if (index === named.size) namedRoot = rootFromSubtrees(range);
    range = appendToRange(index, range, leaf);
  });
  if (leaves.length === named.size) namedRoot = rootFromSubtrees(range);
  if (encodeBase64(rootFromSubtrees(range)) !== encodeBase64(signed.root)) throw logFailure(`the tiles served are not the signed tree of ${signed.size} entries`);
  if (encodeBase64(namedRoot) !== named.root_hash) {
    throw logFailure(`the reputation graph names the tree of ${named.size} entries with root ${named.root_hash}, but the log's first ${named.size} entries give root ${encodeBase64(namedRoot)}`);
  }

  const { entries, problems: bad } = await readEntries(logUrl, tiles.filter((tile) => tile.n * TILE_WIDTH < named.size), (index) => leaves[index]!);
  if (bad.length) {
    for (const problem of bad) output.out(`FAIL  ${problem}`);
    throw logFailure(`the log's entries cannot be read as receipts (first: ${bad[0]})`);
  }
  const summaries: ReceiptSummary[] = [];
  for (let index = 0; index < named.size; index++) {
    const summary = summaryOf(entries.get(index)!, index);
    // Sandbox receipts never count, so only testnet payers are read from the chain.
    const payerAddress = summary.chain === 'testnet' ? ((await options.payerOf(summary.settlementTxId)) ?? null) : null;
    summaries.push({ ...summary, payerAddress });
  }
  const derived = deriveReputationGraph(summaries);
  // Every subject with all its receipts, as the served pages and evidence pages together give them.
  const { totals, subjects } = foldedFromScratch(derived, named.size, Infinity);
  const recomputed = buildReputationGraph({ totals: { ...totals, duplicateReceiptsIgnored: derived.duplicateReceiptsIgnored }, subjects, limit: REPUTATION_PAGE_MAX, nextCursor: null }, new Date(served.generated_at), served.checkpoint);
  const differences = reputationDifferences(served, recomputed);
  const result = { ok: differences.length === 0, checkpoint: { size: named.size, rootHash: named.root_hash }, signedSize: signed.size, receiptsRead: named.size, payersFrom: options.explorerUrl, differences };
  if (options.json) output.out(JSON.stringify(result));
  else if (result.ok) {
    output.out(`OK  the reputation graph of ${options.base} equals the one recomputed from the first ${named.size} entries of log ${origin} (root ${named.root_hash}, within the signed checkpoint of ${signed.size}); payers read from ${options.explorerUrl}`);
  } else {
    for (const line of differences) output.out(`DIFF  ${line}`);
    output.err(`the reputation graph of ${options.base} differs from the one the log's first ${named.size} entries give: ${differences.length} difference${differences.length === 1 ? '' : 's'}`);
  }
  return result.ok ? 0 : 1;
}
