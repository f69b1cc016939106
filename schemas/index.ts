/**
 * Every module of schemas/, by name: the one place code can enumerate the shapes they export. The
 * OpenAPI description names a shape that recurs by its export (src/descriptors/openapi-components.ts);
 * a test keeps this list equal to the folder.
 */
export * as a2a from './a2a.ts';
export * as agentCard from './agent-card.ts';
export * as agentCommon from './agent-common.ts';
export * as assistantStatus from './assistant-status.ts';
export * as assistantTerms from './assistant-terms.ts';
export * as assistant from './assistant.ts';
export * as common from './common.ts';
export * as devServices from './dev-services.ts';
export * as devToolResults from './dev-tool-results.ts';
export * as devToolsCatalogue from './dev-tools-catalogue.ts';
export * as devTools from './dev-tools.ts';
export * as did from './did.ts';
export * as discovery from './discovery.ts';
export * as ergoJson from './ergo-json.ts';
export * as faucet from './faucet.ts';
export * as firstReceipt from './first-receipt.ts';
export * as glossary from './glossary.ts';
export * as jobGuides from './job-guides.ts';
export * as jobValidations from './job-validations.ts';
export * as jobs from './jobs.ts';
export * as launchKit from './launch-kit.ts';
export * as live from './live.ts';
export * as mcpRegistry from './mcp-registry.ts';
export * as mcpTools from './mcp-tools.ts';
export * as onboarding from './onboarding.ts';
export * as policyCheck from './policy-check.ts';
export * as policyCodes from './policy-codes.ts';
export * as problem from './problem.ts';
export * as receipt from './receipt.ts';
export * as registry from './registry.ts';
export * as release from './release.ts';
export * as reputation from './reputation.ts';
export * as roadmap from './roadmap.ts';
export * as schemaConformanceReport from './schema-conformance-report.ts';
export * as trust from './trust.ts';
export * as walletAgent from './wallet-agent.ts';
export * as walletBoundary from './wallet-boundary.ts';
export * as x402 from './x402.ts';
