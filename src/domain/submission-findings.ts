/**
 * What the publish, job acceptance and job quote validations share: collecting findings with the
 * severity their catalogue gives them, turning schema failures into findings, reading the parts of
 * a body that are well formed even when the whole is not (so one bad field does not hide every
 * other finding), and the schema, posture, evidence URL and forbidden-claim checks that all three
 * run, each with its codes.
 */
import type { z } from 'zod';
import type { DeclaredPosture } from '../../schemas/agent-common.ts';
import { jsonPointer } from '../lib/problem-error.ts';
import { findClaimsInJson, type ClaimMatcher } from './forbidden-claims.ts';
import { check, codeEntry, codeOf, MAX_FINDINGS, type Check, type CodeEntry, type FindingSink } from './validation-check.ts';

/** One finding, in zod's `{code, path, message}` vocabulary; `path` is a JSON Pointer into the body. */
export interface Finding {
  code: string;
  path: string;
  message: string;
}

/** What every validation needs besides the body. */
export interface SubmissionContext {
  /** The forbidden-claims list, compiled. */
  matcher: ClaimMatcher;
  /** Origin of this site: its own URLs count as public evidence even when it runs on loopback. */
  siteOrigin: string;
  /** Origin of its runtime where it answers apart (SITE_RUNTIME_URL): its receipts are this site's own too. */
  runtimeOrigin?: string | undefined;
}

export class FindingList implements FindingSink {
  private readonly errorList: Finding[] = [];
  private readonly warningList: Finding[] = [];

  private readonly catalogue: readonly CodeEntry[];

  constructor(catalogue: readonly CodeEntry[]) {
    this.catalogue = catalogue;
  }

  add(code: string, path: string, message: string): void {
    const { severity } = codeEntry(this.catalogue, code);
    (severity === 'error' ? this.errorList : this.warningList).push({ code, path, message });
  }

  get blocked(): boolean {
    return this.errorList.length > 0;
  }

  /** The findings, each list capped at MAX_FINDINGS with a last entry saying how many were left out. */
  lists(): { errors: Finding[]; warnings: Finding[] } {
    const cap = (list: Finding[]): Finding[] => {
      if (list.length <= MAX_FINDINGS) return list;
      const left = list.length - (MAX_FINDINGS - 1);
      return [...list.slice(0, MAX_FINDINGS - 1), { code: 'findings_truncated', path: '', message: `${left} more findings are not listed; fix the ones above and submit again.` }];
    };
    return { errors: cap(this.errorList), warnings: cap(this.warningList) };
  }
}

/** What every validation's checks read: the body as received, its schema failure, and its well-formed parts. */
export interface SubmissionState<Parts> {
  raw: unknown;
  schemaError: z.core.$ZodError | undefined;
  parts: Partial<Parts>;
}

/** Parses `raw` with the validation's schema: the whole when it passes, else every part that does. */
export function submissionState<Schema extends z.ZodObject>(schema: Schema, raw: unknown): SubmissionState<z.output<Schema>> & { valid: z.output<Schema> | undefined } {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { raw, schemaError: undefined, parts: parsed.data, valid: parsed.data } : { raw, schemaError: parsed.error, parts: wellFormedParts(schema, raw), valid: undefined };
}

const SCHEMA_CODES = [
  codeOf('schema', 'error', 'schema_missing_field', 'A required field is absent.'),
  codeOf('schema', 'error', 'schema_invalid_type', 'The value has the wrong JSON type (for example a number where a string is required).'),
  codeOf('schema', 'error', 'schema_unknown_key', 'The key is not part of the schema; the request schemas allow no extra keys.'),
  codeOf('schema', 'error', 'schema_too_small', 'A string, array or number is below its minimum (length, items or value).'),
  codeOf('schema', 'error', 'schema_too_big', 'A string, array or number is above its maximum (length, items or value).'),
  codeOf('schema', 'error', 'schema_invalid_format', 'A string does not have the required form (kebab-case id, absolute URL, ISO 8601 timestamp, nine-digit decimal).'),
  codeOf('schema', 'error', 'schema_invalid_value', 'The value is not one of the values the schema allows.'),
  codeOf('schema', 'error', 'schema_invalid', 'The value fails the schema in a way not covered by the other schema codes.'),
  codeOf('schema', 'error', 'findings_truncated', `More than ${MAX_FINDINGS} findings: the rest are not listed. Fix these and submit again.`),
];

/** A schema failure at a path that one of the checks owns is reported with that check's code. */
export interface SchemaOverride {
  pointer: RegExp;
  code: string;
  /** What would be accepted, appended to zod's message. */
  hint: string;
}

const ZOD_CODES: Readonly<Record<string, string>> = {
  invalid_type: 'schema_invalid_type',
  too_small: 'schema_too_small',
  too_big: 'schema_too_big',
  invalid_format: 'schema_invalid_format',
  invalid_value: 'schema_invalid_value',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether the value at `path` of `raw` is absent (its parent exists and lacks the key). */
function isMissing(raw: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return raw === undefined;
  let node: unknown = raw;
  for (const key of path.slice(0, -1)) {
    if (!isRecord(node) && !Array.isArray(node)) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  const last = path.at(-1)!;
  return (isRecord(node) || Array.isArray(node)) && !Object.hasOwn(node, last as PropertyKey);
}

/** Every schema issue as a finding: missing fields and unknown keys each named, check-owned paths re-coded. */
function addSchemaFindings(findings: FindingSink, error: z.core.$ZodError, raw: unknown, overrides: readonly SchemaOverride[] = []): void {
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        findings.add('schema_unknown_key', jsonPointer([...issue.path, key]), `unknown key "${key}" is not allowed here; remove it (the request schemas allow no extra keys)`);
      }
      continue;
    }
    const pointer = jsonPointer(issue.path);
    if (isMissing(raw, issue.path)) {
      const field = issue.path.length ? String(issue.path.at(-1)) : 'body';
      findings.add('schema_missing_field', pointer, issue.path.length ? `required field "${field}" is missing` : 'the body is missing');
      continue;
    }
    const override = overrides.find((candidate) => candidate.pointer.test(pointer));
    if (override) findings.add(override.code, pointer, `${issue.message}; ${override.hint}`);
    else findings.add(ZOD_CODES[issue.code] ?? 'schema_invalid', pointer, issue.message);
  }
}

/** The schema check: every schema issue a finding; `overrides` re-code paths that later checks own (their codes are theirs). */
export const schemaCheck = (overrides: readonly SchemaOverride[] = []): Check<SubmissionState<unknown>> =>
  check(SCHEMA_CODES, (findings, { schemaError, raw }) => {
    if (schemaError) addSchemaFindings(findings, schemaError, raw, overrides);
  });

/**
 * The fields of `raw` that pass their own schema, so the checks can run on them while the body as a
 * whole fails: a manifest with one unknown key still learns about its posture and its claims.
 */
function wellFormedParts<Schema extends z.ZodObject>(schema: Schema, raw: unknown): Partial<z.output<Schema>> {
  if (!isRecord(raw)) return {};
  const parts: Record<string, unknown> = {};
  for (const [key, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (!Object.hasOwn(raw, key)) continue;
    const parsed = fieldSchema.safeParse(raw[key]);
    if (parsed.success) parts[key] = parsed.data;
  }
  return parts as Partial<z.output<Schema>>;
}

/** The string at `key` of `raw`, for results that name the submitter even when the body is invalid. */
export function stringField(raw: unknown, key: string): string | null {
  return isRecord(raw) && typeof raw[key] === 'string' ? raw[key] : null;
}

export const TESTNET = 'ergo_testnet';

/** Spec posture fact 1 and 2: testnet only, not mainnet ready, no production custody. */
export const postureCheck: Check<SubmissionState<{ posture: DeclaredPosture }>> = check(
  [
    codeOf('posture', 'error', 'posture_network_not_testnet', 'posture.network is not `ergo_testnet`, the only network while the mainnet gate is closed.'),
    codeOf('posture', 'error', 'posture_mainnet_ready', 'posture.mainnet_ready is true; nothing listed, accepted or quoted here is ready for mainnet.'),
    codeOf('posture', 'error', 'posture_production_custody', 'posture.production_custody is true; no service or agent here holds funds or keys for others.'),
  ],
  (findings, { parts: { posture } }) => {
    if (!posture) return;
    if (posture.network !== TESTNET) {
      findings.add('posture_network_not_testnet', '/posture/network', `posture.network is "${posture.network}"; only "${TESTNET}" is accepted while the mainnet gate is closed`);
    }
    if (posture.mainnet_ready) {
      findings.add(
        'posture_mainnet_ready',
        '/posture/mainnet_ready',
        'posture.mainnet_ready must be false: the mainnet gate is closed until an external review and an audit-bound mainnet script identity exist',
      );
    }
    if (posture.production_custody) {
      findings.add('posture_production_custody', '/posture/production_custody', 'posture.production_custody must be false: nothing listed here holds funds or keys for others');
    }
  },
);

const LOCAL_SUFFIXES = /(?:^|\.)(?:localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/;

function isPrivateIpv4(host: string): boolean {
  const octets = host.split('.').map(Number);
  const [a, b] = octets as [number, number];
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
}

/** Whether only the submitter's own machine or network could open a URL on `hostname` (as WHATWG URL normalises it). */
export function isLocalOnlyHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) {
    const ip = host.slice(1, -1);
    return ip === '::' || ip === '::1' || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || ip.startsWith('::ffff:');
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return isPrivateIpv4(host);
  return !host.includes('.') || LOCAL_SUFFIXES.test(host);
}

/** The codes of addEvidenceUrlFindings, part of each validation's evidence check. */
export const EVIDENCE_URL_CODES: readonly CodeEntry[] = [
  codeOf('evidence', 'error', 'evidence_url_malformed', 'An evidence URL is not an absolute http(s) URL.'),
  codeOf('evidence', 'error', 'evidence_url_not_public', 'An evidence URL points at a loopback, private or local-only host that nobody else can open (this site itself excepted).'),
  codeOf('evidence', 'error', 'evidence_url_credentials', 'An evidence URL carries a user name or password; evidence must be open to anyone without secrets.'),
  codeOf('evidence', 'warning', 'evidence_url_plain_http', 'An evidence URL uses plain http; the operator prefers https for third-party evidence.'),
  codeOf('evidence', 'warning', 'evidence_duplicate_url', 'The same evidence URL is listed more than once.'),
];

/**
 * Evidence must be openable by anyone: no loopback or private hosts (this site's own origin
 * excepted, since it may itself run on loopback), no credentials; plain http and repeats only warn.
 */
export function addEvidenceUrlFindings(findings: FindingSink, urls: ReadonlyArray<{ url: string; path: string }>, context: Pick<SubmissionContext, 'siteOrigin' | 'runtimeOrigin'>): void {
  const own = new Set([context.siteOrigin, context.runtimeOrigin].filter((origin) => origin !== undefined).map((origin) => new URL(origin).origin));
  const seen = new Set<string>();
  for (const { url, path } of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      findings.add('evidence_url_malformed', path, `"${url}" is not an absolute URL`);
      continue;
    }
    const ownSite = own.has(parsed.origin);
    if (parsed.username || parsed.password) {
      findings.add('evidence_url_credentials', path, 'the URL carries a user name or password; link evidence anyone can open without secrets');
    }
    if (!ownSite && isLocalOnlyHost(parsed.hostname)) {
      findings.add('evidence_url_not_public', path, `"${parsed.hostname}" is a loopback, private or local-only host; link evidence the operator and other agents can open`);
    } else if (!ownSite && parsed.protocol === 'http:') {
      findings.add('evidence_url_plain_http', path, 'the URL uses plain http; an https URL lets readers trust what they fetch');
    }
    if (seen.has(parsed.href)) findings.add('evidence_duplicate_url', path, `"${url}" is listed more than once`);
    seen.add(parsed.href);
  }
}

/** One finding per claim per string, anywhere in the body, valid or not. */
export const forbiddenClaimsCheck: Check<SubmissionState<unknown> & { context: { matcher: ClaimMatcher } }> = check(
  [codeOf('forbidden-claims', 'error', 'forbidden_claim', 'A string of the submission makes a claim of the forbidden-claims list (and is not a disclaimer of it).')],
  (findings, { raw, context }) => {
    for (const finding of findClaimsInJson(raw, context.matcher)) {
      findings.add(
        'forbidden_claim',
        finding.path,
        `"${finding.excerpt}" reads as the forbidden claim "${finding.phrase}" (${finding.claimId}): ${finding.why} Remove it, or write it as a disclaimer in the same clause ("not …", "no …", "never …").`,
      );
    }
  },
);
