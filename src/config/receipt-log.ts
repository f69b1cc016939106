/**
 * Configuration of the receipt transparency log (docs/transparency-log.md): where its one signing
 * key comes from, how often a checkpoint may be signed, and the log's origin (the schema-less URL
 * prefix its paths hang from, which is also the key's name in the signed notes).
 *
 * | variable                          | default                                | meaning                                                    |
 * |-----------------------------------|----------------------------------------|------------------------------------------------------------|
 * | `LOG_SIGNING_KEY_FILE`            | `DATA_DIR/log-signing-key.pem` (embedded store only) | Ed25519 private key, PKCS#8 PEM; required with `DATABASE_URL` |
 * | `LOG_VERIFIER_KEY`                | set by `npm start` from its key        | verifier key a build publishes in the discovery descriptor |
 * | `LOG_CHECKPOINT_INTERVAL_SECONDS` | `5`                                    | a new checkpoint at most this often, when the log grew     |
 * | `LOG_STATE_FILE`                  | `DATA_DIR/log-signed-checkpoint`       | the last checkpoint signed, kept outside the database; instances may share one |
 * | `LOG_WITNESSES`                   | none                                   | comma-separated `<witness verifier key>=<submission URL>` (c2sp.org/tlog-witness) |
 * | `LOG_WITNESS_QUORUM`              | all of them                            | cosignatures a checkpoint needs before it is published     |
 */
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';
import { site } from './site.ts';
import { DATA_DIR_DEFAULT, loadStoreConfig, signingKeyFile } from './store.ts';

export const LOG_CHECKPOINT_INTERVAL_SECONDS_DEFAULT = 5;
export const LOG_SIGNING_KEY_FILE_NAME = 'log-signing-key.pem';
export const LOG_STATE_FILE_NAME = 'log-signed-checkpoint';
/** Where the log's paths live on this site. */
export const RECEIPT_LOG_PATH = '/api/transparency/receipts';

const logEnvironmentSchema = z.object({
  LOG_SIGNING_KEY_FILE: z.string().min(1).optional(),
  LOG_STATE_FILE: z.string().min(1).optional(),
  LOG_WITNESSES: z.string().optional(),
  LOG_WITNESS_QUORUM: integerVariable(0, 100, 'witnesses').optional(),
  LOG_CHECKPOINT_INTERVAL_SECONDS: integerVariable(1, 3_600, 'seconds').default(LOG_CHECKPOINT_INTERVAL_SECONDS_DEFAULT),
});

/** A witness the log asks to cosign (c2sp.org/tlog-witness): its verifier key (type 0x04) and its submission URL. */
export interface WitnessConfig {
  verifierKey: string;
  url: string;
}

export interface ReceiptLogConfig {
  /** The key file; created on first start when `createIfMissing` (the embedded store's own key). */
  keyFile: string;
  createIfMissing: boolean;
  /**
   * Where the last signed checkpoint is kept, outside the database: the log signs only trees that
   * extend it, so a restored or rewritten store is refused rather than signed over.
   */
  stateFile: string;
  /** The witnesses every published checkpoint is cosigned by, at least `witnessQuorum` of them. */
  witnesses: WitnessConfig[];
  witnessQuorum: number;
  checkpointIntervalSeconds: number;
  /** c2sp.org/tlog-checkpoint origin: the log's URL prefix without its scheme, e.g. `example.org/api/transparency/receipts`. */
  origin: string;
}

/** The origin of the log served at `baseUrl`. */
export const receiptLogOrigin = (baseUrl: string): string => `${baseUrl.replace(/^https?:\/\//, '')}${RECEIPT_LOG_PATH}`;

/**
 * Reads the log's variables; throws naming the variable. Several instances on one PostgreSQL must
 * sign with one key, or the checkpoints they serve would contradict each other: without
 * LOG_SIGNING_KEY_FILE there, the start is refused.
 */
export function loadReceiptLogConfig(env: Record<string, string | undefined> = process.env): ReceiptLogConfig {
  const values = readEnvironment('receipt log configuration', logEnvironmentSchema, env);
  const { keyFile, createIfMissing } = signingKeyFile(
    loadStoreConfig(env),
    values.LOG_SIGNING_KEY_FILE,
    LOG_SIGNING_KEY_FILE_NAME,
    'receipt log configuration: LOG_SIGNING_KEY_FILE must be set with DATABASE_URL: every instance on one PostgreSQL must sign checkpoints with the same Ed25519 key (a PKCS#8 PEM file, which `openssl genpkey -algorithm ed25519 -out log-key.pem` makes; give every instance the same file)',
  );
  const stateFile = resolve(values.LOG_STATE_FILE ?? join(env.DATA_DIR || DATA_DIR_DEFAULT, LOG_STATE_FILE_NAME));
  const witnesses = parseWitnesses(values.LOG_WITNESSES ?? '');
  const witnessQuorum = values.LOG_WITNESS_QUORUM ?? witnesses.length;
  if (witnessQuorum > witnesses.length) throw new Error(`receipt log configuration: LOG_WITNESS_QUORUM is ${witnessQuorum}, but LOG_WITNESSES names ${witnesses.length} witnesses`);
  return { keyFile, createIfMissing, stateFile, witnesses, witnessQuorum, checkpointIntervalSeconds: values.LOG_CHECKPOINT_INTERVAL_SECONDS, origin: receiptLogOrigin(site.base_url) };
}

/** LOG_WITNESSES: `<witness verifier key>=<URL>`, comma-separated; throws naming the entry that is not one (the key's own ID is checked where it is used). */
export function parseWitnesses(text: string): WitnessConfig[] {
  const witnesses = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const at = entry.indexOf('=', entry.lastIndexOf('+'));
      const [verifierKey, url] = at < 0 ? [entry, ''] : [entry.slice(0, at).trim(), entry.slice(at + 1).trim()];
      if (!/^[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+={0,2}$/.test(verifierKey)) {
        throw new Error(`receipt log configuration: LOG_WITNESSES entry '${entry.slice(0, 80)}' does not start with a witness verifier key <name>+<key id>+<base64 key>`);
      }
      if (!/^https?:\/\/\S+$/.test(url) || !URL.canParse(url)) throw new Error(`receipt log configuration: LOG_WITNESSES entry for ${verifierKey.split('+')[0]} has no http(s) URL after '=' (${url || 'none'})`);
      return { verifierKey, url };
    });
  if (new Set(witnesses.map((witness) => witness.verifierKey)).size !== witnesses.length) throw new Error('receipt log configuration: LOG_WITNESSES names one witness twice');
  return witnesses;
}
