/**
 * Spec 4.4: the developer services index (2.3), the developer tools (2.11) and the guarded testnet
 * faucet (2.12). The handlers are thin: the tools are pure functions in `src/domain/dev-tools.ts`,
 * the payout flow is `src/routes/faucet/payout.ts` over the faucet services in `src/services/faucet/`.
 */
import { faucetConfig, type FaucetConfig } from '../../config/faucet.ts';
import { buildDevServicesIndex, buildDevToolsCatalogue } from '../../descriptors/developer.ts';
import { buildFaucetDescriptor } from '../../descriptors/faucet.ts';
import { InspectionInputError } from '../../domain/ergo/inspection-error.ts';
import { runDevTool, type ParsedDevToolRequest } from '../../domain/dev-tools.ts';
import { json, type ApiRequest, type ApiResponse } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { createFaucetBackend, type FaucetBackend } from '../../services/faucet/backend-client.ts';
import { createFaucetPayoutHandler, faucetConfigOr503 } from '../faucet/payout.ts';
import type { Binding } from '../types.ts';
import { runtimeModule } from '../lazy-runtime.ts';

/** GET faucet descriptor, from the configuration this process runs with. */
export function handleFaucetDescriptor(): ApiResponse {
  return json(200, buildFaucetDescriptor(faucetConfigOr503(faucetConfig), new Date()), { 'cache-control': 'no-store' });
}

let backend: { key: string; client: FaucetBackend } | undefined;

/** One backend client (and its connection pool) per configured URL and timeout. */
function faucetBackendFor(config: FaucetConfig): FaucetBackend {
  const key = `${config.backendUrl!.href} ${config.backendTimeoutMs}`;
  if (backend?.key !== key) backend = { key, client: createFaucetBackend(config.backendUrl!, config.backendTimeoutMs) };
  return backend.client;
}

const handleFaucetPayout = createFaucetPayoutHandler({
  config: faucetConfig,
  // Imported when first needed, as the assistant does: the runtime module pulls in the store drivers.
  limiter: async () => (await runtimeModule()).getRateLimiter(),
  backend: faucetBackendFor,
  clock: () => new Date(),
});

/**
 * POST dev tools. The body was validated by the dispatcher; an input that is well-formed text but
 * not the object its action reads is a 400 `invalid_input` naming the field and the reason.
 */
export function handleDevTool(request: ApiRequest): ApiResponse {
  try {
    return json(200, runDevTool(request.body as ParsedDevToolRequest));
  } catch (error) {
    if (!(error instanceof InspectionInputError)) throw error;
    throw new ProblemError(400, 'invalid_input', 'Input cannot be read', error.message, {
      errors: [{ path: `/${error.field}`, code: error.reason, message: error.message }],
    });
  }
}

export const developerBindings: Readonly<Record<string, Binding>> = {
  'dev-services': { build: buildDevServicesIndex },
  'dev-tools-catalogue': { build: buildDevToolsCatalogue },
  'dev-tools': { handler: handleDevTool },
  'faucet-descriptor': { handler: handleFaucetDescriptor },
  'faucet': { handler: handleFaucetPayout },
};

