/**
 * What the three validations (publish, job acceptance, job quote) and their guides share: the one
 * forbidden claims list and its compiled matcher, the checks with the codes each can report, the
 * endpoint block, the operator-review block, and the instant their worked examples are checked at.
 */
import type { z } from 'zod';
import forbiddenClaimsContent from '../../content/forbidden-claims.json' with { type: 'json' };
import {
  forbiddenClaimsListSchema,
  type ForbiddenClaimsList,
  type LinkRef,
  type validationCheckContentSchema,
  type validationCheckSchema,
} from '../../schemas/agent-common.ts';
import { schemaUrl, site, typeName } from '../config/site.ts';
import { compileClaimMatcher, type ClaimMatcher } from '../domain/forbidden-claims.ts';
import type { Finding, SubmissionContext } from '../domain/submission-findings.ts';
import type { CodeEntry } from '../domain/validation-check.ts';
import { routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';
import { entryById } from '../catalogue/index.ts';
import { POSTURE } from './common.ts';
import { resolveStep } from './links.ts';

let forbiddenClaims: ForbiddenClaimsList | undefined;
let matcher: ClaimMatcher | undefined;

/** `content/forbidden-claims.json`, validated; the validators of publish, accept and quote read the same list. */
export function forbiddenClaimsList(): ForbiddenClaimsList {
  forbiddenClaims ??= forbiddenClaimsListSchema.parse(forbiddenClaimsContent);
  return forbiddenClaims;
}

/** What the validators need besides the body: the compiled claims list and this site's origin. */
export function submissionContext(): SubmissionContext {
  matcher ??= compileClaimMatcher(forbiddenClaimsList());
  return { matcher, siteOrigin: site.base_url, runtimeOrigin: site.runtime_url };
}

/** Worked example results are evaluated at a fixed instant, so builds are reproducible. */
export const exampleCheckedAt = (): string => site.example_checked_at;

/**
 * The checks as a guide publishes them: the content's words plus every code of the validator's
 * catalog under its check. A check without codes, or a code whose check the content does not
 * describe, fails the build, so the published list is always the complete one.
 */
export function checksWithCodes(
  checks: ReadonlyArray<z.infer<typeof validationCheckContentSchema>>,
  catalog: readonly CodeEntry[],
  where: string,
): Array<z.infer<typeof validationCheckSchema>> {
  const described = new Set(checks.map((check) => check.id));
  const orphan = catalog.find((entry) => !described.has(entry.check));
  if (orphan) throw new Error(`${where}: code "${orphan.code}" belongs to check "${orphan.check}", which the content does not describe`);
  return checks.map((check) => {
    const codes = catalog.filter((entry) => entry.check === check.id).map(({ code, severity, meaning }) => ({ code, severity, meaning }));
    if (codes.length === 0) throw new Error(`${where}: check "${check.id}" reports no code of the validator's catalog`);
    return { ...check, codes };
  });
}

/**
 * A guide's worked example (or a listed registry entry) must pass the very validation the endpoint
 * runs; otherwise the build stops here, naming every finding, instead of publishing something the
 * endpoint would reject.
 */
export function assertExampleAccepted(where: string, errors: readonly Finding[]): void {
  if (errors.length === 0) return;
  const listed = errors.map((error) => `${error.code} at ${error.path || '(body)'}: ${error.message}`).join('\n  ');
  throw new Error(`${where} is rejected by the validation its endpoint runs:\n  ${listed}`);
}

/**
 * The fields every validation result ends with (schemas/agent-common.ts `validationOutcomeShape`):
 * the findings, the guide's steps for a submission that passed or for one that is blocked, the posture.
 */
export function validationOutcome<Step extends { link?: LinkRef | undefined }>(
  outcome: { errors: Finding[]; warnings: Finding[] },
  steps: { passed: readonly Step[]; blocked: readonly Step[] },
) {
  const passed = outcome.errors.length === 0;
  return {
    errors: outcome.errors,
    warnings: outcome.warnings,
    next_steps: (passed ? steps.passed : steps.blocked).map(resolveStep),
    posture: POSTURE,
  };
}

/** Absolute URL of the published schema of a dynamic route's 200 body. */
export function resultSchemaUrl(routeId: string): string {
  const route = entryById().get(routeId);
  const published = route?.kind === 'dynamic' ? route.responses[200]?.schema : undefined;
  if (!published) throw new Error(`route table: route "${routeId}" has no published 200 schema`);
  return schemaUrl(published.file);
}

export function validationEndpoint(routeId: string) {
  return {
    method: 'POST' as const,
    url: routeUrl(routeId),
    request_schema: routeSchemaUrl(routeId),
    result_schema: resultSchemaUrl(routeId),
    content_type: 'application/json' as const,
  };
}

export function operatorReview(howToSubmit: string) {
  return {
    required: true as const,
    automatic_effect: 'none' as const,
    how_to_submit: howToSubmit,
    review_pack: routeUrl('review-pack'),
  };
}

/** `type` and `version` of a typed payload that is not a descriptor (a result or a draft: no status or date). */
export function payloadHeader(name: string) {
  return { type: typeName(name), version: 'v0' as const };
}
