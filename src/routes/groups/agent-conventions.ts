/**
 * Discovery through conventions outside the contract: `llms.txt`, `llms-full.txt` and the A2A agent
 * card. Static like every descriptor, built from the same route table and manifests.
 */
import { buildAgentCard, buildLlmsFullTxt, buildLlmsTxt } from '../../descriptors/agent-conventions.ts';
import type { Binding } from '../types.ts';

export const agentConventionBindings: Readonly<Record<string, Binding>> = {
  'llms': { build: buildLlmsTxt },
  'llms-full': { build: buildLlmsFullTxt },
  'agent-card': { build: buildAgentCard },
};

