/**
 * What the three validation guides (publish, job acceptance, job quote) share: the one forbidden
 * claims list, the endpoint block, the operator-review block and the timestamp of their worked
 * example results.
 */
import forbiddenClaimsContent from '../../content/forbidden-claims.json' with { type: 'json' };
import { forbiddenClaimsListSchema, type ForbiddenClaimsList } from '../../schemas/agent-common.ts';
import { schemaUrl, site, typeName } from '../config/site.ts';
import { routeSchemaUrl, routeUrl } from '../routes/lookup.ts';
import { routeById } from '../routes/table.ts';

let forbiddenClaims: ForbiddenClaimsList | undefined;

/** `content/forbidden-claims.json`, validated; the validators of publish, accept and quote read the same list. */
export function forbiddenClaimsList(): ForbiddenClaimsList {
  forbiddenClaims ??= forbiddenClaimsListSchema.parse(forbiddenClaimsContent);
  return forbiddenClaims;
}

/** Worked example results are dated at noon UTC of the site's last update, so builds are reproducible. */
export const exampleCheckedAt = (): string => `${site.last_updated}T12:00:00Z`;

/** Absolute URL of the published schema of a dynamic route's 200 body. */
export function resultSchemaUrl(routeId: string): string {
  const route = routeById().get(routeId);
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
