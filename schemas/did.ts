/**
 * The did:web document this service publishes at `/.well-known/did.json` (W3C DID Core, did:web
 * method): where a client resolves the `kid` of a signed x402 offer or receipt to the Ed25519 key
 * that signed it. One verification method, named by that `kid` and listed under `assertionMethod`.
 */
import { z } from 'zod';

/** An Ed25519 public key as a JWK (RFC 8037): the raw 32 bytes, base64url, in `x`. */
export const ed25519JwkSchema = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().regex(/^[A-Za-z0-9_-]{43}$/).describe('The 32-byte Ed25519 public key, base64url without padding.'),
  })
  .describe('An Ed25519 public key as a JSON Web Key (RFC 8037).');
export type Ed25519Jwk = z.infer<typeof ed25519JwkSchema>;

export const didDocumentSchema = z
  .object({
    '@context': z.array(z.string()),
    id: z.string().regex(/^did:web:/).describe('This site\'s DID: `did:web:` and its host (a port\'s colon written `%3A`).'),
    verificationMethod: z
      .array(
        z.object({
          id: z.string().describe('The `kid` signed offers and receipts name in their JWS header.'),
          type: z.literal('JsonWebKey2020'),
          controller: z.string(),
          publicKeyJwk: ed25519JwkSchema,
        }),
      )
      .length(1),
    assertionMethod: z.array(z.string()).describe('The keys that sign statements in this site\'s name: the one key of x402 offers and receipts.'),
  })
  .describe('did:web document: the key that signs this service\'s x402 offers and receipts (EdDSA), and nothing else.');
export type DidDocument = z.infer<typeof didDocumentSchema>;
