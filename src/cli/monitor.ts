/**
 * `agent-economy monitor --state FILE`: the reader's own watch on the receipt log. The log only
 * proves anything to someone who kept an earlier checkpoint and refuses a later one that does not
 * extend it, so this keeps, in a file of the reader's, the verifier key, the last checkpoint it
 * accepted and the compact range of that tree's full tiles, and on each run: verifies the new
 * checkpoint's signature, reads the level-0 tiles from where it stopped, recomputes from them the
 * kept root (same size, same root, or the log forked) and the new root (else the tiles are not the
 * signed tree), then reads every new entry and checks it hashes to its leaf and is a receipt bundle
 * whose id is its own. Nothing the site says is taken on trust but the key on first use.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { RECEIPT_LOG_PATH } from '../config/receipt-log.ts';
import { decodeBase64, encodeBase64 } from '../domain/tlog/base64.ts';
import { formatVerifierKey, openCheckpoint, openOwnCheckpoint, parseVerifierKey } from '../domain/tlog/note.ts';
import { witnessCheck, type WitnessPolicy } from './receipt-log-proof.ts';
import { TILE_WIDTH } from '../domain/tlog/tiles.ts';
import { appendToRange, EMPTY_TREE_HASH, HASH_SIZE, rootFromSubtrees, sameBytes, type Hash } from '../domain/tlog/tree.ts';
import { logFailure, readEntries, readLeaves } from './log-tiles.ts';
import { CliError, fetchBytes, type Output } from './output.ts';

/** What the monitor keeps between runs. */
export interface MonitorState {
  version: 1;
  /** The log's origin, the verifier key's name. */
  origin: string;
  verifierKey: string;
  /** The last checkpoint accepted: its tree size, base64 root and the signed note verbatim. */
  size: number;
  rootHash: string;
  checkpoint: string;
  /** Base64 hashes of the complete subtrees of the first floor(size / 256) * 256 entries, left to right. */
  fullTilesRange: string[];
}

export interface MonitorOptions {
  stateFile: string;
  base: string;
  /** The verifier key to trust (`--log-key`); else the kept one, else the site's on first use. */
  logKey?: string;
  /** Witnesses whose cosignatures each checkpoint must carry, at least their quorum. */
  witnesses?: WitnessPolicy;
  json: boolean;
}

const b64 = encodeBase64;

function readState(file: string): MonitorState | undefined {
  if (!existsSync(file)) return undefined;
  let state: MonitorState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as MonitorState;
  } catch (error) {
    throw new CliError(`--state ${file} is not a monitor state file: ${(error as Error).message}`);
  }
  const hashes = [state?.rootHash, ...(Array.isArray(state?.fullTilesRange) ? state.fullTilesRange : [null])];
  if (
    state?.version !== 1 ||
    typeof state.verifierKey !== 'string' ||
    !Number.isSafeInteger(state.size) ||
    state.size < 0 ||
    hashes.some((hash) => typeof hash !== 'string' || decodeBase64(hash)?.length !== HASH_SIZE)
  ) {
    throw new CliError(`--state ${file} is not a monitor state file of this version (version 1: verifierKey, size, rootHash, fullTilesRange); move it away to start over`);
  }
  return state;
}

function writeState(file: string, state: MonitorState): void {
  // A crash mid-write must leave the previous state, never half of one: the next run would trust it.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o644 });
  renameSync(temporary, file);
}

/** A failure of the log itself (not of this command's use): exit 1, the state left as it was. */

async function trustedKey(options: MonitorOptions, kept: MonitorState | undefined, output: Output): Promise<string> {
  if (kept && options.logKey && options.logKey !== kept.verifierKey) {
    throw new CliError(`--log-key ${options.logKey} is not the key kept in ${options.stateFile} (${kept.verifierKey}); a log does not change its key: start a new state file if you mean to trust another`);
  }
  if (options.logKey ?? kept?.verifierKey) return (options.logKey ?? kept?.verifierKey)!;
  const url = `${options.base}${RECEIPT_LOG_PATH}/key`;
  const answer = await fetchBytes(url);
  const key = answer.text.trim();
  const parsed = parseVerifierKey(key);
  if (answer.status !== 200 || !parsed.ok) throw logFailure(`${url} answered HTTP ${answer.status} without a verifier key${parsed.ok ? '' : `: ${parsed.reason}`}`);
  if (!options.json) output.err(`monitor: trusting the site's verifier key on first use: ${key} (kept in ${options.stateFile}; pass --log-key to pin it)`);
  return key;
}

/** Runs one round; resolves to the exit status, or throws a CliError naming what the log did wrong. */
export async function monitor(options: MonitorOptions, output: Output): Promise<number> {
  const kept = readState(options.stateFile);
  let verifierKey = await trustedKey(options, kept, output);
  const logUrl = `${options.base}${RECEIPT_LOG_PATH}`;

  const checkpointAnswer = await fetchBytes(`${logUrl}/checkpoint`);
  if (checkpointAnswer.status !== 200) throw logFailure(`${logUrl}/checkpoint answered HTTP ${checkpointAnswer.status}${checkpointAnswer.problemDetail ? `: ${checkpointAnswer.problemDetail}` : ''}`);
  const keptOrigin = verifierKey.slice(0, verifierKey.indexOf('+'));
  // The origin is the site's URL, and so the key's name: a site that moved signs under another name.
  // The kept key's own Ed25519 key signing under it is the same log moved (only its holder can), so
  // with a kept state the new name is accepted and kept from then on; any other key is refused.
  const keptPublicKey = parseVerifierKey(verifierKey);
  const opened: ReturnType<typeof openOwnCheckpoint> =
    kept && keptPublicKey.ok ? openOwnCheckpoint(checkpointAnswer.text, keptPublicKey.verifier.publicKey, keptOrigin) : openCheckpoint(checkpointAnswer.text, verifierKey, keptOrigin);
  const movedTo = opened.ok ? opened.otherOrigin : undefined;
  const moved = movedTo !== undefined;
  if (moved && keptPublicKey.ok) {
    verifierKey = formatVerifierKey(movedTo, keptPublicKey.verifier.publicKey);
    // The site publishes the key it signs with: after a move, that is the kept key under the new name.
    const published = await fetchBytes(`${logUrl}/key`);
    if (published.status !== 200 || published.text.trim() !== verifierKey) {
      throw logFailure(`the checkpoint is signed as ${movedTo} by the kept key, but ${logUrl}/key answers HTTP ${published.status} ${JSON.stringify(published.text.trim().slice(0, 120))}, not ${verifierKey}`);
    }
  }
  const origin = verifierKey.slice(0, verifierKey.indexOf('+'));
  if (!opened.ok) throw logFailure(`the checkpoint ${logUrl}/checkpoint serves is refused: ${opened.reason}`);
  if (moved && !options.json) output.err(`monitor: the log moved from ${keptOrigin} to ${origin}: the kept key signs under its new name ${verifierKey}, which is kept from now on`);
  if (options.witnesses) {
    const witnessed = witnessCheck(checkpointAnswer.text, options.witnesses);
    if (!witnessed.ok) throw logFailure(`the checkpoint ${logUrl}/checkpoint serves is refused: ${witnessed.detail}`);
  }
  const { size, root } = opened.checkpoint;

  const oldSize = kept?.size ?? 0;
  const oldRoot = kept ? decodeBase64(kept.rootHash)! : EMPTY_TREE_HASH;
  const keptLine = `the kept checkpoint of size ${oldSize}, root ${b64(oldRoot)}`;
  const newLine = `the new checkpoint of size ${size}, root ${b64(root)}`;
  if (size < oldSize) throw logFailure(`the log shrank: ${newLine} is smaller than ${keptLine}`);
  if (size === oldSize && !sameBytes(root, oldRoot)) throw logFailure(`the log forked: ${newLine} has the size of ${keptLine} but another root`);

  // Leaves from the first tile not summed in the kept range up to the new size.
  const { start, leaves, tiles } = await readLeaves(logUrl, Math.floor(oldSize / TILE_WIDTH), size);

  // The kept tree recomputed from the tiles the new one is served with: a different root means the new tree does not extend it.
  let range = (kept?.fullTilesRange ?? []).map((hash) => decodeBase64(hash)!);
  let nextFullTilesRange: Hash[] = range;
  leaves.forEach((leaf, i) => {
    if (start + i === oldSize) {
      const recomputed = rootFromSubtrees(range);
      if (!sameBytes(recomputed, oldRoot)) throw logFailure(`the log forked: the tiles of ${newLine} give root ${b64(recomputed)} for size ${oldSize}, but ${keptLine}`);
    }
    range = appendToRange(start + i, range, leaf);
    if ((start + i + 1) % TILE_WIDTH === 0) nextFullTilesRange = range;
  });
  if (leaves.length === oldSize - start && !sameBytes(rootFromSubtrees(range), oldRoot)) {
    throw logFailure(`the log forked: the tiles of ${newLine} give root ${b64(rootFromSubtrees(range))} for size ${oldSize}, but ${keptLine}`);
  }
  const newRoot = rootFromSubtrees(range);
  if (!sameBytes(newRoot, root)) throw logFailure(`the tiles served are not the signed tree: ${newLine}, but its level-0 tiles give root ${b64(newRoot)}`);

  // Entries: every entry of the bundles read, so a partial bundle's older entries are checked again.
  const { problems } = await readEntries(logUrl, tiles, (index) => leaves[index - start]!);
  const checked = size - start;
  if (problems.length) {
    for (const problem of problems) output.out(`FAIL  ${problem}`);
    throw logFailure(`the log at ${newLine} serves ${problems.length} bad entr${problems.length === 1 ? 'y' : 'ies'} (first: ${problems[0]}); the state in ${options.stateFile} is unchanged`);
  }

  writeState(options.stateFile, {
    version: 1,
    origin,
    verifierKey,
    size,
    rootHash: b64(root),
    checkpoint: checkpointAnswer.text,
    fullTilesRange: nextFullTilesRange.map(b64),
  });
  const summary = {
    ok: true,
    origin,
    ...(moved ? { movedFrom: keptOrigin } : {}),
    previous: { size: oldSize, rootHash: b64(oldRoot) },
    checkpoint: { size, rootHash: b64(root) },
    entriesChecked: checked,
    state: options.stateFile,
  };
  if (options.json) output.out(JSON.stringify(summary));
  else
    output.out(
      kept
        ? `OK  log ${origin}: ${newLine} extends ${keptLine}; ${size - oldSize} new entries, ${checked} checked against their leaves; state kept in ${options.stateFile}`
        : `OK  log ${origin}: ${newLine} is its tiles' tree; all ${checked} entries checked against their leaves; state written to ${options.stateFile}`,
    );
  return 0;
}
