/**
 * The receipt log's one signing key: an Ed25519 key that signs checkpoints and nothing else (it
 * holds no funds and signs no transaction). The embedded store's deployment makes it on first start
 * in DATA_DIR, readable by its owner only; instances sharing a PostgreSQL are given one key file.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseWitnesses, type ReceiptLogConfig } from '../config/receipt-log.ts';
import { formatVerifierKey, parseVerifierKey, rawPublicKey } from '../domain/tlog/note.ts';
import { logger } from './logger.ts';
import { witnessesOf } from './witness-client.ts';

/** The private key in `config.keyFile`, made first when the configuration lets it; throws a message naming the file and the fix. */
export function loadLogSigningKey(config: Pick<ReceiptLogConfig, 'keyFile' | 'createIfMissing'>): KeyObject {
  if (!existsSync(config.keyFile) && !config.createIfMissing) throw new Error(`receipt log: LOG_SIGNING_KEY_FILE names ${config.keyFile}, which does not exist`);
  return readEd25519KeyFile(config.keyFile, { owner: 'receipt log', signs: 'checkpoints in the log\'s name', create: config.createIfMissing });
}

/**
 * An Ed25519 private key (PKCS#8 PEM) in `file`, made there first when `create` and it is absent
 * (`made` says so: a log line by default); refused, with a message naming the file and the fix, when
 * others may read it or it holds no such key.
 */
export function readEd25519KeyFile(
  file: string,
  { owner, signs, create = false, made = () => logger.info({ file }, `${owner}: signing key made`) }: { owner: string; signs: string; create?: boolean; made?: () => void },
): KeyObject {
  if (create && !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      // `wx`: two processes starting on one directory at once keep the first key, never two.
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
      made();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch (error) {
    throw new Error(`${owner}: the key file ${file} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  // A key anyone else on the machine can read lets them sign in its owner's name.
  if (mode & 0o077) {
    throw new Error(`${owner}: ${file} is readable or writable by group or others (mode ${mode.toString(8).padStart(4, '0')}); the key that signs ${signs} must be its owner's alone: chmod 600 ${file}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (error) {
    throw new Error(`${owner}: ${file} is not a readable private key (an Ed25519 key in PKCS#8 PEM): ${(error as Error).message}`, { cause: error });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${owner}: ${file} holds a ${key.asymmetricKeyType} key; it signs with Ed25519`);
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

/**
 * The witnesses a build publishes in the discovery descriptor: LOG_WITNESSES and LOG_WITNESS_QUORUM as
 * the build sees them (the same variables the server asks its witnesses by), read from the environment alone.
 */
export function publishedWitnesses(env: Record<string, string | undefined> = process.env): { witnesses: Array<{ verifierKey: string; url: string }>; witnessQuorum: number } {
  const witnesses = witnessesOf(parseWitnesses(env.LOG_WITNESSES ?? '')).map(({ verifierKey, url }) => ({ verifierKey, url }));
  const given = env.LOG_WITNESS_QUORUM?.trim();
  const witnessQuorum = given ? Number(given) : witnesses.length;
  if (!/^\d+$/.test(given ?? '0') || witnessQuorum > witnesses.length) throw new Error(`LOG_WITNESS_QUORUM must be a whole number from 0 to the ${witnesses.length} witnesses LOG_WITNESSES names, got "${given}"`);
  return { witnesses, witnessQuorum };
}

/** The verifier key of the key `config` signs with. */
export function verifierKeyOf(config: Pick<ReceiptLogConfig, 'keyFile' | 'createIfMissing' | 'origin'>): string {
  return formatVerifierKey(config.origin, rawPublicKey(loadLogSigningKey(config)));
}
