/**
 * What the x402 facilitator checks before it reads any Note (docs/x402-ergo.md, "Verification"): the
 * resource server's `paymentRequirements` are the requirements this service issued for the quote,
 * field for field, and the payload's `accepted` is a copy of them. The Note is judged against the
 * stored quote; a resource server acts on the verdict for the requirements it sent. A verdict given
 * for requirements that differ (a higher price, another payee) would let it sell for the quote's price.
 */
import { X402_SCHEME, type X402Network, type X402Requirements } from '../../../schemas/x402.ts';
import type { StoredQuote } from '../ports.ts';
import { premiumQuoteBody } from './pricing.ts';
import { x402RequirementsOf } from './x402.ts';

/** The two copies of the requirements a facilitator request carries, as sent. */
export interface FacilitatorTerms {
  paymentRequirements: unknown;
  accepted: unknown;
}

/** Why a facilitator request's requirements are refused, with an x402 reason code. */
export interface RequirementsRefusal {
  reason: 'unsupported_scheme' | 'requirements_mismatch';
  /** Where the request differs, JSON-pointer-ish: `paymentRequirements.amount`, `paymentPayload.accepted.extra.taskHash`. */
  fields: string[];
  message: string;
}

/** Field names a message lists before it says how many more there are; the request sets how many differ. */
const NAMED_FIELDS = 12;

/**
 * The requirements the chat's PAYMENT-REQUIRED offered for `stored`. Its `maxTimeoutSeconds` is the
 * lifetime the quote was issued with (both instants are stored), not today's configuration; its
 * network the one of the chain this server reads.
 */
export function issuedRequirementsOf(stored: StoredQuote, network: X402Network): X402Requirements {
  return x402RequirementsOf(premiumQuoteBody(stored), Math.round((stored.expiresAt.getTime() - stored.issuedAt.getTime()) / 1000), network);
}

/**
 * The refusal of requirements of a scheme or network this facilitator does not settle, or
 * undefined. Read before the quote is looked up: such a request names no quote of ours.
 */
export function unsupportedRequirements(terms: FacilitatorTerms, network: X402Network): RequirementsRefusal | undefined {
  const named: Array<[string, string]> = [];
  const sent = [
    ['paymentRequirements', terms.paymentRequirements],
    ['paymentPayload.accepted', terms.accepted],
  ] as const;
  for (const [path, requirements] of sent) {
    for (const [key, supported] of [['scheme', X402_SCHEME], ['network', network]] as const) {
      const value = isRecord(requirements) ? requirements[key] : undefined;
      // A missing or non-string value is no other scheme, only a difference: the comparison names it.
      if (typeof value === 'string' && value !== supported) named.push([`${path}.${key}`, value]);
    }
  }
  if (named.length === 0) return undefined;
  const said = named.map(([field, value]) => `${field} is ${JSON.stringify(value.slice(0, 64))}`).join(', ');
  return {
    reason: 'unsupported_scheme',
    fields: named.map(([field]) => field),
    message: `This facilitator settles scheme "${X402_SCHEME}" on "${network}" only: ${said}.`,
  };
}

/**
 * The refusal of a request whose `paymentRequirements` are not exactly `issued` or whose
 * `accepted` is not exactly its `paymentRequirements`, or undefined when both are. A key missing
 * or added counts as a difference; JSON types count too (`"900"` is not `900`). `names` says where
 * the request carries each copy; a door with one copy passes it as both.
 */
export function requirementsMismatch(issued: X402Requirements, terms: FacilitatorTerms, names = { requirements: 'paymentRequirements', accepted: 'paymentPayload.accepted' }): RequirementsRefusal | undefined {
  const fields = [...differences(issued, terms.paymentRequirements, names.requirements), ...differences(terms.paymentRequirements, terms.accepted, names.accepted)];
  if (fields.length === 0) return undefined;
  const more = fields.length - NAMED_FIELDS;
  return {
    reason: 'requirements_mismatch',
    fields,
    message:
      `The requirements differ from the ones this service issued for quote ${issued.extra.quoteId}: ${fields.slice(0, NAMED_FIELDS).join(', ')}${more > 0 ? ` and ${more} more` : ''}. ` +
      `Send the requirements exactly as they were offered, in ${names.requirements}${terms.paymentRequirements === terms.accepted ? '' : ` and in ${names.accepted}`}.`,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The paths under `path` where `actual` is not `expected`: a whole value when their kinds differ. */
function differences(expected: unknown, actual: unknown, path: string): string[] {
  const bothRecords = isRecord(expected) && isRecord(actual);
  const bothArrays = Array.isArray(expected) && Array.isArray(actual);
  if (!bothRecords && !bothArrays) return expected === actual ? [] : [path];
  const left = expected as Record<string, unknown>;
  const right = actual as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: for JSON values a key one side lacks reads as undefined, which no value on the other side equals: the same path is named either way.
  return [...keys].flatMap((key) => (Object.hasOwn(left, key) && Object.hasOwn(right, key) ? differences(left[key], right[key], `${path}.${key}`) : [`${path}.${key}`]));
}
