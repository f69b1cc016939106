/**
 * The receipt log's one signing key: an Ed25519 key that signs checkpoints and nothing else (it
 * holds no funds and signs no transaction). The embedded store's deployment makes it on first start
 * in DATA_DIR, readable by its owner only; instances sharing a PostgreSQL are given one key file.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReceiptLogConfig } from '../config/receipt-log.ts';
import { formatVerifierKey, parseVerifierKey, rawPublicKey } from '../domain/tlog/note.ts';
import { logger } from './logger.ts';

/** The private key in `config.keyFile`, made first when the configuration lets it; throws a message naming the file and the fix. */
export function loadLogSigningKey(config: Pick<ReceiptLogConfig, 'keyFile' | 'createIfMissing'>): KeyObject {
  if (!existsSync(config.keyFile)) {
    if (!config.createIfMissing) throw new Error(`receipt log: LOG_SIGNING_KEY_FILE names ${config.keyFile}, which does not exist`);
    mkdirSync(dirname(config.keyFile), { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      // `wx`: two processes starting on one DATA_DIR at once keep the first key, never two.
      writeFileSync(config.keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
      logger.info({ file: config.keyFile }, 'receipt log: signing key made');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(config.keyFile));
  } catch (error) {
    throw new Error(`receipt log: ${config.keyFile} is not a readable private key (an Ed25519 key in PKCS#8 PEM): ${(error as Error).message}`, { cause: error });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`receipt log: ${config.keyFile} holds a ${key.asymmetricKeyType} key; the log signs with Ed25519`);
  return key;
}

/**
 * The verifier key a build publishes in the discovery descriptor: LOG_VERIFIER_KEY, which `npm start`
 * sets from the key it signs with before it builds (a build for a CDN sets it by hand). Undefined
 * without it: the descriptor then points to the key's URL only. Read from the environment alone, so
 * the build and a running process (the MCP host builds its resources in process) agree.
 */
export function publishedVerifierKey(env: Record<string, string | undefined> = process.env): string | undefined {
  const given = env.LOG_VERIFIER_KEY?.trim();
  if (!given) return undefined;
  const parsed = parseVerifierKey(given);
  if (!parsed.ok) throw new Error(`LOG_VERIFIER_KEY is not a signed-note verifier key: ${parsed.reason}`);
  return given;
}

/** The verifier key of the key `config` signs with. */
export function verifierKeyOf(config: Pick<ReceiptLogConfig, 'keyFile' | 'createIfMissing' | 'origin'>): string {
  return formatVerifierKey(config.origin, rawPublicKey(loadLogSigningKey(config)));
}
