/** Spec 4.1 (discovery part) and 4.2's OpenAPI document. */
import { buildCapabilityManifest, buildDiscoveryDescriptor } from '../../descriptors/discovery.ts';
import { buildOpenApiDocument } from '../../descriptors/openapi.ts';
import { publishedVerifierKey, publishedWitnesses } from '../../services/log-signing-key.ts';
import type { Binding } from '../types.ts';

export const discoveryBindings: Readonly<Record<string, Binding>> = {
  'discovery-well-known': {
    build: () => {
      const { witnesses, witnessQuorum } = publishedWitnesses();
      return buildDiscoveryDescriptor(publishedVerifierKey(), { list: witnesses, quorum: witnessQuorum });
    },
  },
  'agents-well-known': { build: buildCapabilityManifest },
  'openapi': { build: buildOpenApiDocument },
};

