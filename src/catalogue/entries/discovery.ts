/** Spec 4.1 (discovery part) and 4.2's OpenAPI document. */
import { didDocumentSchema } from '../../../schemas/did.ts';
import { capabilityManifestSchema, discoveryDescriptorSchema } from '../../../schemas/discovery.ts';
import { publish } from '../published.ts';
import type { Entry } from '../types.ts';

const discoverySchema = publish('discovery.schema.v0.json', 'DiscoveryDescriptor', 'Discovery descriptor', discoveryDescriptorSchema);
const didSchema = publish('did-document.schema.v0.json', 'DidDocument', 'did:web document', didDocumentSchema);
const capabilitiesSchema = publish('agent-capabilities.schema.v0.json', 'CapabilityManifest', 'Capability manifest', capabilityManifestSchema);

export const DISCOVERY_ENTRIES: readonly Entry[] = [
    {
      id: 'discovery-well-known',
      kind: 'static',
      method: 'GET',
      path: '/.well-known/agent-economy.json',
      tag: 'Discovery',
      summary: 'Discovery descriptor',
      description: 'What this service is, its posture, and where every surface, schema and host lives.',
      schema: discoverySchema,
      page: '/discovery/',
    },
    {
      id: 'discovery',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/discovery',
      tag: 'Discovery',
      summary: 'Discovery descriptor (API twin)',
      description: 'Byte-identical to `/.well-known/agent-economy.json`, with a `Link: <schema>; rel="describedby"` header.',
      schema: discoverySchema,
      mirrorOf: 'discovery-well-known',
      describedBy: true,
      page: '/discovery/',
    },
    {
      id: 'did-web',
      kind: 'dynamic',
      method: 'GET',
      path: '/.well-known/did.json',
      tag: 'Discovery',
      summary: 'did:web document: the key of signed x402 offers and receipts',
      description:
        'The site\'s DID document (did:web): the Ed25519 key whose `kid` every signed x402 offer and receipt names (offer-receipt extension, JWS, `alg` EdDSA). ' +
        'It signs offers and receipts only; the receipt log\'s checkpoints have their own key. Served by the runtime from the key it signs with, so it is always the key in use.',
      responses: { 200: { description: 'The DID document.', schema: didSchema, headers: { 'Cache-Control': '`public, max-age=300`.' } } },
      page: '/discovery/',
    },
    {
      id: 'agents-well-known',
      kind: 'static',
      method: 'GET',
      path: '/.well-known/agents.json',
      tag: 'Discovery',
      summary: 'Capability manifest',
      description: 'Capabilities, the endpoints that deliver them, the claim boundary and the recommended path.',
      schema: capabilitiesSchema,
      page: '/agents/',
    },
    {
      id: 'agents',
      kind: 'static',
      method: 'GET',
      path: '/api/agents',
      tag: 'Discovery',
      summary: 'Capability manifest (API twin)',
      description: 'Byte-identical to `/.well-known/agents.json`.',
      schema: capabilitiesSchema,
      mirrorOf: 'agents-well-known',
      page: '/agents/',
    },
    {
      id: 'openapi',
      kind: 'static',
      method: 'GET',
      path: '/agent-economy/openapi.v0.json',
      tag: 'Discovery',
      summary: 'OpenAPI 3.1 description of this API',
      description: 'Generated from the route catalogue; every path, method, request schema and status code of the contract. Compact JSON; shapes that recur are components referenced with `$ref`.',
      compact: true,
      page: '/api-reference/',
    },
    {
      id: 'openapi-root',
      kind: 'static',
      method: 'GET',
      path: '/openapi.json',
      tag: 'Discovery',
      summary: 'OpenAPI description (conventional path)',
      description: 'Byte-identical to `/agent-economy/openapi.v0.json`, at the path API tools try first.',
      mirrorOf: 'openapi',
      page: '/api-reference/',
    },
    {
      id: 'openapi-well-known',
      kind: 'static',
      method: 'GET',
      path: '/.well-known/openapi.json',
      tag: 'Discovery',
      summary: 'OpenAPI description (well-known path)',
      description: 'Byte-identical to `/agent-economy/openapi.v0.json`.',
      mirrorOf: 'openapi',
      page: '/api-reference/',
    },
];

