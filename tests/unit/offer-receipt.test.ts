/**
 * Signed x402 offers and receipts (offer-receipt extension v1.0, JWS): what this service signs
 * verifies with @x402/extensions' own verifiers and client helpers under the key its did:web document
 * publishes, binds the terms and the quote, and a changed byte fails; the key is held as the log's is.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  decodeSignedOffers,
  extractJWSHeader,
  findAcceptsObjectFromSignedOffer,
  verifyOfferSignatureJWS,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureJWS,
  type JWSSignedOffer,
} from '@x402/extensions/offer-receipt';
import { didDocumentSchema } from '../../schemas/did.ts';
import type { X402Requirements } from '../../schemas/x402.ts';
import { loadX402SigningConfig, X402_SIGNING_KEY_FILE_NAME } from '../../src/config/x402-signing.ts';
import { didDocumentOf, offerDigest, offerReceiptKeyId } from '../../src/domain/assistant/offer-receipt.ts';
import { createOfferReceiptSigner, loadX402SigningKey, publicJwkOf, publishedX402Key, x402KeyRefusal } from '../../src/services/x402-signing-key.ts';

const dir = mkdtempSync(join(tmpdir(), 'x402-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = 'http://127.0.0.1:4321';
const requirements: X402Requirements = {
  scheme: 'exact',
  network: 'ergo:testnet',
  asset: 'ERG',
  amount: '2500000',
  payTo: '3WwdXmYP39DLmDWJ6grH7XHHR6B6WsRTd6Y1yS5Dn9Zp4ALHnTPq',
  maxTimeoutSeconds: 600,
  extra: { paymentFlow: 'upfront', quoteId: 'q_01JTESTQUOTE0000000000000', taskHash: 'a'.repeat(64), reserveBoxId: 'b'.repeat(64), noteExpiryMinHeight: 100, minConfirmations: 1 },
};
const expiresAt = new Date('2030-01-01T00:10:00.000Z');
const key = generateKeyPairSync('ed25519').privateKey;
const signer = createOfferReceiptSigner(key, BASE);
const published = didDocumentOf(BASE, signer.publicKeyJwk);
/** The key a client resolves the offer's kid to, from the published DID document. */
const resolved = (kid: string) => published.verificationMethod.find((method) => method.id === kid)!.publicKeyJwk;

describe('a signed offer', () => {
  it('verifies with the key the did:web document publishes under its kid, and binds payTo, amount, network and quote', async () => {
    expect(didDocumentSchema.parse(published).id).toBe('did:web:127.0.0.1%3A4321');
    const [offer] = await signer.signOffers(`${BASE}/api/assistant/chat`, [requirements], expiresAt);
    expect(offer).toMatchObject({ format: 'jws', acceptIndex: 0 });
    const { alg, kid } = extractJWSHeader(offer!.signature);
    expect({ alg, kid }).toEqual({ alg: 'EdDSA', kid: offerReceiptKeyId(BASE) });
    const payload = await verifyOfferSignatureJWS(offer!, resolved(kid!));
    expect(payload).toEqual({
      version: 1,
      resourceUrl: `${BASE}/api/assistant/chat`,
      scheme: 'exact',
      network: 'ergo:testnet',
      asset: 'ERG',
      payTo: requirements.payTo,
      amount: '2500000',
      validUntil: expiresAt.getTime() / 1000,
      quoteId: requirements.extra.quoteId,
    });
    // x402's client helpers find the accepts entry the offer is for.
    expect(findAcceptsObjectFromSignedOffer(decodeSignedOffers([offer!])[0]!, [requirements] as never)).toBe(requirements);
  });

  it('fails verification once its amount is changed, or under another key', async () => {
    const [offer] = await signer.signOffers(`${BASE}/api/assistant/chat`, [requirements], expiresAt);
    const [header, payload, signature] = offer!.signature.split('.');
    const terms = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const tampered: JWSSignedOffer = { format: 'jws', signature: [header, Buffer.from(JSON.stringify({ ...terms, amount: '1' })).toString('base64url'), signature].join('.') };
    await expect(verifyOfferSignatureJWS(tampered, signer.publicKeyJwk)).rejects.toThrow(/signature verification failed/);
    await expect(verifyOfferSignatureJWS(offer!, publicJwkOf(generateKeyPairSync('ed25519').privateKey))).rejects.toThrow(/signature verification failed/);
  });
});

describe('a signed receipt', () => {
  it('verifies, names the receipt log entry, the settlement and the offer it paid, and matches that offer for x402 clients', async () => {
    const resourceUrl = `${BASE}/api/assistant/chat`;
    const [offer] = await signer.signOffers(resourceUrl, [requirements], expiresAt);
    const settled = { receiptId: 'c'.repeat(64), transaction: 'd'.repeat(64), payer: '3WxPayerAddressxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', noteBoxId: 'e'.repeat(64) };
    const receipt = await signer.signReceipt(resourceUrl, requirements, expiresAt, settled, new Date());
    const payload = (await verifyReceiptSignatureJWS(receipt, signer.publicKeyJwk)) as unknown as Record<string, unknown>;
    expect(payload).toMatchObject({ version: 1, network: 'ergo:testnet', resourceUrl, payer: settled.payer, transaction: settled.transaction, receiptId: settled.receiptId, quoteId: requirements.extra.quoteId });
    // Bound to the offer: the digest of the offer's signed payload bytes.
    expect(payload.offer).toBe(offerDigest(Buffer.from(offer!.signature.split('.')[1]!, 'base64url')));
    expect(verifyReceiptMatchesOffer(receipt, decodeSignedOffers([offer!])[0]!, [settled.payer])).toBe(true);
    // Without a payer address from the chain, the Note the payer made names them.
    const unnamed = await signer.signReceipt(resourceUrl, requirements, expiresAt, { ...settled, payer: null }, new Date());
    expect(await verifyReceiptSignatureJWS(unnamed, signer.publicKeyJwk)).toMatchObject({ payer: settled.noteBoxId });
  });
});

describe('the x402 signing key file', () => {
  const env = { DATA_DIR: dir, DATABASE_URL: '' };

  it('is made on first start in DATA_DIR, its owner\'s alone, and named by the public key npm start publishes', () => {
    const config = loadX402SigningConfig(env);
    expect(config).toEqual({ keyFile: join(dir, X402_SIGNING_KEY_FILE_NAME), createIfMissing: true });
    const made = loadX402SigningKey(config);
    expect(existsSync(config.keyFile)).toBe(true);
    expect(publicJwkOf(loadX402SigningKey(config)).x).toBe(publicJwkOf(made).x);
    expect(publishedX402Key({ X402_SIGNING_PUBLIC_KEY: publicJwkOf(made).x })).toBe(publicJwkOf(made).x);
    expect(() => publishedX402Key({ X402_SIGNING_PUBLIC_KEY: 'nope' })).toThrow(/X402_SIGNING_PUBLIC_KEY is not an Ed25519 public key/);
  });

  it('is refused when others may read it, when it is required and missing, or given with PostgreSQL but not named', () => {
    const loose = join(dir, 'loose.pem');
    writeFileSync(loose, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    chmodSync(loose, 0o644);
    expect(() => loadX402SigningKey(loadX402SigningConfig({ ...env, X402_SIGNING_KEY_FILE: loose }))).toThrow(/x402 signing: .*loose\.pem is readable or writable by group or others \(mode 0644\).*chmod 600/);
    expect(() => loadX402SigningKey(loadX402SigningConfig({ ...env, X402_SIGNING_KEY_FILE: join(dir, 'absent.pem') }))).toThrow(/X402_SIGNING_KEY_FILE names .*absent\.pem, which does not exist/);
    expect(() => loadX402SigningConfig({ ...env, DATABASE_URL: 'postgres://127.0.0.1/test' })).toThrow(/X402_SIGNING_KEY_FILE must be set with DATABASE_URL/);
  });

  it('is refused when it is not the key the build published, or is the receipt log\'s key', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(x402KeyRefusal(key, { published: publicJwkOf(key).x })).toBeUndefined();
    expect(x402KeyRefusal(key, { published: null, logKey: other })).toBeUndefined();
    expect(x402KeyRefusal(key, { published: publicJwkOf(other).x })).toMatch(/publishes the x402 signing key .* but .* is the key in X402_SIGNING_KEY_FILE/);
    expect(x402KeyRefusal(key, { logKey: key })).toMatch(/holds the receipt log's checkpoint key/);
  });
});
