/**
 * Configuration of the key that signs x402 offers and receipts (the offer-receipt extension,
 * docs/x402-ergo.md "Signed offers and receipts"). It is a key of its own, never the receipt log's
 * checkpoint key, and it is held as that key is: a file, made on first start by the embedded store's
 * deployment, given by hand (the same file to every instance) with PostgreSQL.
 *
 * | variable                  | default                                            | meaning                                                           |
 * |---------------------------|----------------------------------------------------|-------------------------------------------------------------------|
 * | `X402_SIGNING_KEY_FILE`   | `DATA_DIR/x402-signing-key.pem` (embedded store only) | Ed25519 private key, PKCS#8 PEM; required with `DATABASE_URL`  |
 * | `X402_SIGNING_PUBLIC_KEY` | set by `npm start` from its key                    | the public key (a JWK's `x`) a build publishes in the discovery descriptor |
 */
import { z } from 'zod';
import { readEnvironment } from './env.ts';
import { loadStoreConfig, signingKeyFile } from './store.ts';

export const X402_SIGNING_KEY_FILE_NAME = 'x402-signing-key.pem';

const signingEnvironmentSchema = z.object({
  X402_SIGNING_KEY_FILE: z.string().min(1).optional(),
});

export interface X402SigningConfig {
  /** The key file; created on first start when `createIfMissing` (the embedded store's own key). */
  keyFile: string;
  createIfMissing: boolean;
}

/**
 * Reads the signing key's variable; throws naming it. Instances on one PostgreSQL answer one
 * client's 402 and its paid retry in turn, so they must sign with one key: without
 * X402_SIGNING_KEY_FILE there, the start is refused.
 */
export function loadX402SigningConfig(env: Record<string, string | undefined> = process.env): X402SigningConfig {
  const values = readEnvironment('x402 signing configuration', signingEnvironmentSchema, env);
  return signingKeyFile(
    loadStoreConfig(env),
    values.X402_SIGNING_KEY_FILE,
    X402_SIGNING_KEY_FILE_NAME,
    'x402 signing configuration: X402_SIGNING_KEY_FILE must be set with DATABASE_URL: every instance on one PostgreSQL must sign offers and receipts with the same Ed25519 key (a PKCS#8 PEM file, which `openssl genpkey -algorithm ed25519 -out x402-key.pem` makes; not the receipt log\'s key)',
  );
}
