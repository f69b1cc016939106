/** Spec 4.3, bound: the wallet-agent descriptors' builders and the policy check's handler. */
import type { PolicyCheckRequest } from '../../../schemas/policy-check.ts';
import {
  buildPolicyContract,
  buildPolicyProfileTemplate,
  buildReferenceFlow,
  buildWalletAgentSpec,
} from '../../descriptors/wallet-agent.ts';
import { checkPolicy } from '../../domain/policy-engine.ts';
import { json, type ApiRequest, type ApiResponse } from '../../lib/api.ts';
import type { Binding } from '../types.ts';

/**
 * POST policy-check. The dispatcher has already validated the body against the request schema
 * (a malformed one is a 400 before this runs), so the handler only asks the engine.
 */
export function handlePolicyCheck(request: ApiRequest): ApiResponse {
  return json(200, checkPolicy(request.body as PolicyCheckRequest, new Date()));
}

export const walletAgentBindings: Readonly<Record<string, Binding>> = {
  'wallet-agent': { build: buildWalletAgentSpec },
  'policy-check-contract': { build: buildPolicyContract },
  'policy-check': { handler: handlePolicyCheck },
  'reference-flow': { build: buildReferenceFlow },
  'policy-profile-template': { build: buildPolicyProfileTemplate },
};

