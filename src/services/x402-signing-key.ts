/**
 * The key that signs x402 offers and receipts, and the signer over it: an Ed25519 key of its own
 * (never the receipt log's checkpoint key), held as that key is (a PKCS#8 PEM file its owner alone
 * may read, made on first start in DATA_DIR by the embedded store's deployment, never in the store),
 * published as the one key of the site's did:web document. Signing is @x402/extensions' JWS
 * (`createJWS`: RFC 8785 payload, `{alg: "EdDSA", kid}` header), so the library's verifiers and
 * client helpers read what this service signs.
 */
import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { JWSSignedOffer, JWSSignedReceipt, JWSSigner } from '@x402/extensions/offer-receipt';
import type { Ed25519Jwk } from '../../schemas/did.ts';
import type { X402Requirements } from '../../schemas/x402.ts';
import type { X402SigningConfig } from '../config/x402-signing.ts';
import { site } from '../config/site.ts';
import { OFFER_RECEIPT_ALGORITHM, offerPayloadOf, offerReceiptKeyId, receiptPayloadOf } from '../domain/assistant/offer-receipt.ts';
import { readEd25519KeyFile } from './log-signing-key.ts';

/** The private key in `config.keyFile`, made first when the configuration lets it; throws a message naming the file and the fix. */
export function loadX402SigningKey(config: X402SigningConfig): KeyObject {
  if (!existsSync(config.keyFile) && !config.createIfMissing) throw new Error(`x402 signing: X402_SIGNING_KEY_FILE names ${config.keyFile}, which does not exist`);
  return readEd25519KeyFile(config.keyFile, { owner: 'x402 signing', signs: 'x402 offers and receipts in this site\'s name', create: config.createIfMissing });
}

/** The public half of an Ed25519 key as the DID document and the discovery descriptor publish it. */
export function publicJwkOf(key: KeyObject): Ed25519Jwk {
  const { kty, crv, x } = createPublicKey(key).export({ format: 'jwk' });
  return { kty: kty as 'OKP', crv: crv as 'Ed25519', x: x! };
}

/**
 * The public key a build publishes in the discovery descriptor: X402_SIGNING_PUBLIC_KEY, which
 * `npm start` sets from the key it signs with before it builds. Undefined without it: the descriptor
 * then names the DID document only. Read from the environment alone, as LOG_VERIFIER_KEY is.
 */
export function publishedX402Key(env: Record<string, string | undefined> = process.env): string | undefined {
  const given = env.X402_SIGNING_PUBLIC_KEY?.trim();
  if (!given) return undefined;
  if (!/^[A-Za-z0-9_-]{43}$/.test(given)) throw new Error('X402_SIGNING_PUBLIC_KEY is not an Ed25519 public key: give the 32 bytes base64url without padding (a JWK\'s `x`)');
  return given;
}

/**
 * Why the key this server would sign offers with cannot be used, or undefined: it is the receipt
 * log's key (one key, one purpose: a receipt signature must never pass for a checkpoint's), or not
 * the key the build published (clients that resolved the published key would refuse every offer).
 */
export function x402KeyRefusal(signing: KeyObject, others: { logKey?: KeyObject | undefined; published?: string | null | undefined }): string | undefined {
  const { x } = publicJwkOf(signing);
  if (others.logKey && publicJwkOf(others.logKey).x === x) {
    return 'X402_SIGNING_KEY_FILE holds the receipt log\'s checkpoint key: offers and receipts are signed with a key of their own. Give another key file (openssl genpkey -algorithm ed25519 -out x402-key.pem)';
  }
  if (others.published && others.published !== x) {
    return `the build publishes the x402 signing key ${others.published} in its discovery descriptor, but ${x} is the key in X402_SIGNING_KEY_FILE: clients resolving the published key would refuse every offer. Rebuild with the same DATA_DIR or X402_SIGNING_KEY_FILE as the server (or X402_SIGNING_PUBLIC_KEY set to its key)`;
  }
  return undefined;
}

/** Signs offers and receipts with one key, in the name of one `kid`. */
export interface OfferReceiptSigner {
  kid: string;
  publicKeyJwk: Ed25519Jwk;
  /** The signed offer of each `accepts` entry, in their order, valid while their quote is. */
  signOffers(resourceUrl: string, accepts: readonly X402Requirements[], expiresAt: Date): Promise<JWSSignedOffer[]>;
  /** The signed receipt of a settled payment of `requirements` (the offer it paid), naming its receipt. */
  signReceipt(
    resourceUrl: string,
    requirements: X402Requirements,
    expiresAt: Date,
    settled: { receiptId: string; transaction: string; payer: string | null; noteBoxId: string },
    issuedAt: Date,
  ): Promise<JWSSignedReceipt>;
}

/** The library loaded on first signature: a server that never answers a 402 never loads it (or viem under it). */
let library: Promise<typeof import('@x402/extensions/offer-receipt')> | undefined;
const offerReceiptLibrary = () => (library ??= import('@x402/extensions/offer-receipt'));

/** A signer over `key`, naming the key of the DID document of the site at `baseUrl`. */
export function createOfferReceiptSigner(key: KeyObject, baseUrl: string = site.base_url): OfferReceiptSigner {
  const kid = offerReceiptKeyId(baseUrl);
  const jwsSigner: JWSSigner = {
    kid,
    format: 'jws',
    algorithm: OFFER_RECEIPT_ALGORITHM,
    sign: async (signingInput) => sign(null, signingInput, key).toString('base64url'),
  };
  return {
    kid,
    publicKeyJwk: publicJwkOf(key),
    async signOffers(resourceUrl, accepts, expiresAt) {
      const { createJWS } = await offerReceiptLibrary();
      return Promise.all(accepts.map(async (requirements, acceptIndex) => ({ format: 'jws' as const, acceptIndex, signature: await createJWS(offerPayloadOf(resourceUrl, requirements, expiresAt), jwsSigner) })));
    },
    async signReceipt(resourceUrl, requirements, expiresAt, settled, issuedAt) {
      const { canonicalize, createJWS } = await offerReceiptLibrary();
      const payload = offerPayloadOf(resourceUrl, requirements, expiresAt);
      return { format: 'jws', signature: await createJWS(receiptPayloadOf({ payload, canonical: canonicalize(payload) }, settled, issuedAt), jwsSigner) };
    },
  };
}
