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
 */
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';
import { site } from './site.ts';
import { loadStoreConfig } from './store.ts';

export const LOG_CHECKPOINT_INTERVAL_SECONDS_DEFAULT = 5;
export const LOG_SIGNING_KEY_FILE_NAME = 'log-signing-key.pem';
/** Where the log's paths live on this site. */
export const RECEIPT_LOG_PATH = '/api/transparency/receipts';

const logEnvironmentSchema = z.object({
  LOG_SIGNING_KEY_FILE: z.string().min(1).optional(),
  LOG_CHECKPOINT_INTERVAL_SECONDS: integerVariable(1, 3_600, 'seconds').default(LOG_CHECKPOINT_INTERVAL_SECONDS_DEFAULT),
});

export interface ReceiptLogConfig {
  /** The key file; created on first start when `createIfMissing` (the embedded store's own key). */
  keyFile: string;
  createIfMissing: boolean;
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
  const store = loadStoreConfig(env);
  if (!values.LOG_SIGNING_KEY_FILE && store.driver === 'postgres') {
    throw new Error(
      'receipt log configuration: LOG_SIGNING_KEY_FILE must be set with DATABASE_URL: every instance on one PostgreSQL must sign checkpoints with the same Ed25519 key (a PKCS#8 PEM file, which `openssl genpkey -algorithm ed25519 -out log-key.pem` makes; give every instance the same file)',
    );
  }
  const keyFile = values.LOG_SIGNING_KEY_FILE ? resolve(values.LOG_SIGNING_KEY_FILE) : join(store.driver === 'sqlite' ? store.dataDir : '.', LOG_SIGNING_KEY_FILE_NAME);
  return { keyFile, createIfMissing: !values.LOG_SIGNING_KEY_FILE, checkpointIntervalSeconds: values.LOG_CHECKPOINT_INTERVAL_SECONDS, origin: receiptLogOrigin(site.base_url) };
}
