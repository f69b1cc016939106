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
import { loadLogSigningKey, publishedVerifierKey, publishedWitnesses, verifierKeyOf } from '../../src/services/log-signing-key.ts';
import { formatCosignerKey } from '../../src/domain/tlog/cosignature.ts';
import { discoveryBindings } from '../../src/routes/groups/discovery.ts';

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

describe('the witnesses a build publishes', () => {
  const [a, b] = [formatCosignerKey('witness.test/a', generateNoteKey().publicKey), formatCosignerKey('witness.test/b', generateNoteKey().publicKey)];

  it('are LOG_WITNESSES with their quorum (default all), and the descriptor moves with them', () => {
    const withTwo = { ...env, LOG_WITNESSES: `${a}=https://a.example/w, ${b}=http://127.0.0.1:9/` };
    expect(publishedWitnesses(withTwo)).toEqual({ witnesses: [{ verifierKey: a, url: 'https://a.example/w' }, { verifierKey: b, url: 'http://127.0.0.1:9/' }], witnessQuorum: 2 });
    expect(publishedWitnesses({ ...withTwo, LOG_WITNESS_QUORUM: '1' }).witnessQuorum).toBe(1);
    expect(publishedWitnesses(env)).toEqual({ witnesses: [], witnessQuorum: 0 });
    const build = (discoveryBindings['discovery-well-known'] as { build: () => unknown }).build;
    const before = process.env.LOG_WITNESSES;
    try {
      process.env.LOG_WITNESSES = withTwo.LOG_WITNESSES;
      const named = discoveryDescriptorSchema.parse(build()).verification.receipt_log;
      expect(named).toMatchObject({ witnesses: [{ verifier_key: a, url: 'https://a.example/w' }, { verifier_key: b }], witness_quorum: 2 });
      delete process.env.LOG_WITNESSES;
      expect(discoveryDescriptorSchema.parse(build()).verification.receipt_log).toMatchObject({ witnesses: [], witness_quorum: 0 });
    } finally {
      if (before === undefined) delete process.env.LOG_WITNESSES;
      else process.env.LOG_WITNESSES = before;
    }
  });

  it('refuses, naming what is wrong, an entry without a URL, a key that is not a witness\'s, one named twice, a quorum it cannot meet', () => {
    expect(() => publishedWitnesses({ ...env, LOG_WITNESSES: a })).toThrow(/has no http\(s\) URL after '='/);
    expect(() => publishedWitnesses({ ...env, LOG_WITNESSES: `${a}=ftp://a.example` })).toThrow(/has no http\(s\) URL/);
    expect(() => publishedWitnesses({ ...env, LOG_WITNESSES: 'nokey=https://a.example' })).toThrow(/does not start with a witness verifier key/);
    const logKey = formatVerifierKey('witness.test/a', generateNoteKey().publicKey);
    expect(() => publishedWitnesses({ ...env, LOG_WITNESSES: `${logKey}=https://a.example` })).toThrow(/not a witness verifier key: the key is of signature type 0x01/);
    const otherId = a.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    expect(() => publishedWitnesses({ ...env, LOG_WITNESSES: `${otherId}=https://a.example` })).toThrow(/key ID 00000000 is not the ID/);
    expect(() => publishedWitnesses({ ...env, LOG_WITNESSES: `${a}=https://a.example,${a}=https://b.example` })).toThrow(/names one witness twice/);
    expect(() => publishedWitnesses({ ...env, LOG_WITNESSES: `${a}=https://a.example`, LOG_WITNESS_QUORUM: '2' })).toThrow(/LOG_WITNESS_QUORUM must be a whole number from 0 to the 1 witnesses/);
    expect(() => loadReceiptLogConfig({ ...env, LOG_WITNESSES: `${a}=https://a.example`, LOG_WITNESS_QUORUM: '2' })).toThrow(/LOG_WITNESS_QUORUM is 2, but LOG_WITNESSES names 1 witnesses/);
    expect(loadReceiptLogConfig({ ...env, LOG_WITNESSES: `${a}=https://a.example` })).toMatchObject({ witnesses: [{ verifierKey: a, url: 'https://a.example' }], witnessQuorum: 1 });
  });
});
