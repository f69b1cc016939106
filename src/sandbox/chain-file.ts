/**
 * The sandbox chain kept in a file (`SANDBOX_CHAIN_FILE`, by default `DATA_DIR/sandbox-chain.json`),
 * so that a restarted `npm run sandbox` still has the Notes it minted: the service's receipts name
 * those boxes, and a chain that forgot them would make every receipt's Note look missing.
 *
 * The file is JSON rewritten whole after every change, before the change is answered, through
 * writeFileDurably: a crash leaves the chain before the change or after it, never a part. A file
 * that cannot be read as a sandbox chain stops the start with its name and the way to start empty;
 * it is never replaced by an empty chain unless asked (`--fresh`).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileDurably } from '../lib/durable-file.ts';
import { REGISTER_IDS, SandboxChain, type SandboxBox, type SandboxChainState } from './chain.ts';

/** Names the layout; a file of another layout is refused, never half read. */
export const CHAIN_FILE_FORMAT = 'ergo-sandbox-chain/1';

const FRESH_COMMAND = 'npm run sandbox -- --fresh';

const id = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hexadecimal characters');
const hexBytes = z.string().regex(/^(?:[0-9a-f]{2})+$/, 'must be lower-case hex of whole bytes');
const height = z.int().min(0).max(2_147_483_647);

const boxSchema = z.strictObject({
  boxId: id,
  transactionId: id,
  index: z.int().min(0).max(65_535),
  value: z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a positive whole number of nanoERG, as a string'),
  ergoTree: hexBytes,
  address: z.string().min(1),
  creationHeight: height,
  registers: z.partialRecord(z.enum(REGISTER_IDS), hexBytes),
  inclusionHeight: height.nullable(),
  blockId: id.nullable(),
  globalIndex: z.int().min(0).nullable(),
  spentTransactionId: id.nullable(),
  spendingHeight: height.nullable(),
  hiddenFromExplorer: z.boolean(),
});

const chainFileSchema = z.strictObject({
  format: z.literal(CHAIN_FILE_FORMAT),
  tip: z.strictObject({ id, height, timestamp: z.int().min(0) }),
  fundingBoxId: id,
  nextGlobalIndex: z.int().min(0),
  mempool: z.array(z.strictObject({ transactionId: id, spendsBoxId: id })),
  boxes: z.array(boxSchema).min(1),
});

type KeptBox = z.infer<typeof boxSchema>;

const keptBox = (box: SandboxBox): KeptBox => ({
  ...box,
  value: box.value.toString(),
  inclusionHeight: box.inclusionHeight ?? null,
  blockId: box.blockId ?? null,
  globalIndex: box.globalIndex ?? null,
  spentTransactionId: box.spentTransactionId ?? null,
  spendingHeight: box.spendingHeight ?? null,
});

const sandboxBox = (box: KeptBox): SandboxBox => ({
  ...box,
  value: BigInt(box.value),
  inclusionHeight: box.inclusionHeight ?? undefined,
  blockId: box.blockId ?? undefined,
  globalIndex: box.globalIndex ?? undefined,
  spentTransactionId: box.spentTransactionId ?? undefined,
  spendingHeight: box.spendingHeight ?? undefined,
});

/** The file's text for a chain: one JSON document, bigints as decimal strings. */
export function chainFileText(state: SandboxChainState): string {
  return `${JSON.stringify({ format: CHAIN_FILE_FORMAT, tip: state.tip, fundingBoxId: state.fundingBoxId, nextGlobalIndex: state.nextGlobalIndex, mempool: state.mempool, boxes: state.boxes.map(keptBox) })}\n`;
}

/** What went wrong with a kept chain, with the file's name and how to start afresh. */
function unusable(file: string, problem: string): Error {
  return new Error(`the sandbox chain file ${file} ${problem}; \`${FRESH_COMMAND}\` starts an empty chain in its place (move the file aside first to keep it), or SANDBOX_CHAIN_FILE names another file`);
}

/** Reads a kept chain; undefined when there is no file yet. Throws naming the file when it is there but is not a sandbox chain. */
export function readChainFile(file: string): SandboxChain | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unusable(file, `cannot be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw unusable(file, `is not JSON (${(error as Error).message})`);
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (format !== CHAIN_FILE_FORMAT) throw unusable(file, `is not a sandbox chain of format ${CHAIN_FILE_FORMAT} (its format: ${JSON.stringify(format) ?? 'none'})`);
  const parsed = chainFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw unusable(file, `is not a sandbox chain: ${issue.path.join('.') || '(top level)'} ${issue.message}`);
  }
  try {
    return new SandboxChain({ ...parsed.data, boxes: parsed.data.boxes.map(sandboxBox) });
  } catch (error) {
    throw unusable(file, `does not hold together: ${(error as Error).message}`);
  }
}

/** Writes the chain over its file, whole and durably; throws naming the file. */
export function writeChainFile(file: string, chain: SandboxChain): void {
  try {
    writeFileDurably(file, chainFileText(chain.state()));
  } catch (error) {
    throw new Error(`could not write the sandbox chain file ${file} (${(error as Error).message}); the chain goes on in memory, but a restart would lose what changed since`);
  }
}
