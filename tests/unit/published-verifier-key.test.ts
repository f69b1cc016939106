/**
 * The receipt log's verifier key as a build publishes it in the discovery descriptor: the one
 * LOG_VERIFIER_KEY gives (npm start sets it from the key it signs with), else none (the descriptor
 * then names the key's URL only).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoveryDescriptorSchema } from '../../schemas/discovery.ts';
import { LOG_SIGNING_KEY_FILE_NAME, loadReceiptLogConfig } from '../../src/config/receipt-log.ts';
import { buildDiscoveryDescriptor } from '../../src/descriptors/discovery.ts';
import { formatVerifierKey, generateNoteKey, rawPublicKey } from '../../src/domain/tlog/note.ts';
import { loadLogSigningKey, publishedVerifierKey, verifierKeyOf } from '../../src/services/log-signing-key.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'verifier-key-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const env = { DATA_DIR: dataDir, DATABASE_URL: '' };

describe('publishedVerifierKey', () => {
  it('is undefined without LOG_VERIFIER_KEY, even when a key file exists, and makes no key', () => {
    expect(publishedVerifierKey(env)).toBeUndefined();
    expect(existsSync(join(dataDir, LOG_SIGNING_KEY_FILE_NAME))).toBe(false);
  });

  it('is LOG_VERIFIER_KEY when given, and refuses one that is not a verifier key, naming the variable', () => {
    const given = formatVerifierKey('example.org/api/transparency/receipts', generateNoteKey().publicKey);
    expect(publishedVerifierKey({ ...env, LOG_VERIFIER_KEY: given })).toBe(given);
    expect(() => publishedVerifierKey({ ...env, LOG_VERIFIER_KEY: 'not-a-key' })).toThrow(/LOG_VERIFIER_KEY is not a signed-note verifier key/);
  });

  it('is what npm start sets it to: the verifier key of the key file the server signs with', () => {
    const config = loadReceiptLogConfig(env);
    const made = verifierKeyOf(config);
    expect(existsSync(join(dataDir, LOG_SIGNING_KEY_FILE_NAME))).toBe(true);
    expect(made).toBe(formatVerifierKey(config.origin, rawPublicKey(loadLogSigningKey(config))));
    expect(publishedVerifierKey(env)).toBeUndefined();
  });
});

describe('the discovery descriptor names the receipt log', () => {
  it('with its URLs always, and the verifier key the build knew (null otherwise)', () => {
    const key = formatVerifierKey('example.org/api/transparency/receipts', generateNoteKey().publicKey);
    const withKey = discoveryDescriptorSchema.parse(buildDiscoveryDescriptor(key));
    expect(withKey.verification.receipt_log).toMatchObject({ verifier_key: key, checkpoint_api: expect.stringMatching(/\/api\/transparency\/receipts\/checkpoint$/), verifier_key_api: expect.stringMatching(/\/key$/) });
    expect(discoveryDescriptorSchema.parse(buildDiscoveryDescriptor()).verification.receipt_log.verifier_key).toBeNull();
  });
});
