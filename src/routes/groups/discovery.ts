/** Spec 4.1 (discovery part) and 4.2's OpenAPI document. */
import { buildCapabilityManifest, buildDiscoveryDescriptor } from '../../descriptors/discovery.ts';
import { buildOpenApiDocument } from '../../descriptors/openapi.ts';
import { publishedVerifierKey, publishedWitnesses } from '../../services/log-signing-key.ts';
import { publishedX402Key } from '../../services/x402-signing-key.ts';
import { didDocumentOf } from '../../domain/assistant/offer-receipt.ts';
import { site } from '../../config/site.ts';
import { json } from '../../lib/api.ts';
import { runtimeModule } from '../lazy-runtime.ts';
import type { Binding } from '../types.ts';

export const discoveryBindings: Readonly<Record<string, Binding>> = {
  'discovery-well-known': {
    build: () => {
      const { witnesses, witnessQuorum } = publishedWitnesses();
      return buildDiscoveryDescriptor(publishedVerifierKey(), { list: witnesses, quorum: witnessQuorum }, publishedX402Key());
    },
  },
  // From the key the runtime signs with, never a build's copy: a did:web client must find the key in use.
  'did-web': { handler: async () => json(200, didDocumentOf(site.base_url, (await runtimeModule()).getOfferReceiptSigner().publicKeyJwk), { 'cache-control': 'public, max-age=300' }) },
  'agents-well-known': { build: buildCapabilityManifest },
  'openapi': { build: buildOpenApiDocument },
};

