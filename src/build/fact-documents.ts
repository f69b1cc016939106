/**
 * What the service holds as data, said as sentences the assistant quotes as facts: every error
 * code with its status and meaning, every MCP tool with what it does and the route it mirrors,
 * every glossary term with its definition, and (from the running configuration, so never at build)
 * the assistant's terms. Each line carries the words people ask for it by that it does not write
 * itself ("what does this error mean", "which tool", "how long is it valid"), so a plain-words
 * question finds the fact and not a sentence that only mentions its words.
 */
import { GLOSSARY } from '../descriptors/glossary.ts';
import { PROBLEM_CODES } from '../lib/problem-codes.ts';
import { MCP_TOOL_ENTRIES } from '../catalogue/mcp-tools.ts';
import { entryById } from '../catalogue/index.ts';
import { pageUrl, routeUrl } from '../catalogue/lookup.ts';
import { siteUrl } from '../config/site.ts';
import { paidTurnConfig } from '../config/assistant.ts';
import { assistantTermsFacts, buildAssistantTerms } from '../descriptors/assistant-terms.ts';
import { buildInfo } from '../config/build-info.ts';
import { POLICY_REASON_CODES, POLICY_WARNING_CODES } from '../../schemas/policy-codes.ts';
import { PUBLISH_CODES } from '../domain/publish-validation.ts';
import { ACCEPTANCE_CODES, QUOTE_CODES } from '../domain/job-validation.ts';
import type { CodeEntry } from '../domain/validation-check.ts';

/** A document of the corpus whose lines may carry the words a question asks for them by. */
export interface FactDocument {
  id: string;
  title: string;
  url: string;
  /** One fact per line. */
  text: string;
  /** For each line, the words a question may use for it that it does not write. */
  cues: Array<string[] | null>;
}

const document = (id: string, title: string, url: string, facts: Array<{ text: string; cues: string[] }>): FactDocument => ({
  id,
  title,
  url,
  text: facts.map(({ text }) => text).join('\n'),
  cues: facts.map(({ cues }) => cues),
});

const ERROR = ['error', 'code', 'problem', 'refus', 'reject', 'reason', 'status', 'mean', 'fail', 'get', 'answer'];
const TOOL = ['tool', 'mcp', 'call'];
const DEFINITION = ['mean', 'definition', 'define', 'what'];

const CODE = ['code', 'mean', 'get', 'error', 'finding', 'blocked', 'block', 'refus', 'fail'];

/** A validation's codes, a line each: the code, its check and severity, and what it means. */
const validationCodes = (id: string, title: string, url: string, validation: string, codes: readonly CodeEntry[]) =>
  document(
    id,
    title,
    url,
    codes.map((entry) => ({ text: `${entry.code} (${validation}, check \`${entry.check}\`, ${entry.severity}): ${entry.meaning}`, cues: [...CODE, entry.severity] })),
  );

/** The facts a build fixes: error codes, MCP tools, the glossary. */
export function builtFactDocuments(): FactDocument[] {
  return [
    document(
      'page:/problems/',
      'Errors',
      siteUrl('/problems/'),
      PROBLEM_CODES.map((entry) => ({ text: `${entry.code} (${entry.status}, ${entry.where}): ${entry.meaning}`, cues: [...ERROR, String(entry.status)] })),
    ),
    document(
      'facts:mcp-tools',
      'MCP tools',
      siteUrl('/mcp-tools/'),
      MCP_TOOL_ENTRIES.map((tool) => {
        const route = tool.backedBy ? entryById().get(tool.backedBy.route) : undefined;
        const mirrors = route ? ` Over HTTP: ${route.method} ${route.path}.` : '';
        return { text: `The MCP tool \`${tool.name}\` (${tool.title}): ${tool.description}${mirrors}`, cues: TOOL };
      }),
    ),
    // The codes of the policy check and of the validations, each with its meaning: their pages list
    // the meanings, but a code alone is no prose, so without these lines no sentence names it.
    document('facts:policy-codes', 'Policy check codes', pageUrl('policy-check'), [
      ...POLICY_REASON_CODES.map((entry) => ({ text: `${entry.code} (policy check reason, denies; check \`${entry.check}\`, field \`${entry.field}\`): ${entry.meaning}`, cues: [...CODE, 'deny', 'denied', 'reason'] })),
      ...POLICY_WARNING_CODES.map((entry) => ({ text: `${entry.code} (policy check warning, does not deny; field \`${entry.field}\`): ${entry.meaning}`, cues: [...CODE, 'warning', 'warn'] })),
    ]),
    validationCodes('facts:publish-codes', 'Publish validation codes', pageUrl('publish'), 'publish validation', PUBLISH_CODES),
    validationCodes('facts:acceptance-codes', 'Job acceptance codes', pageUrl('jobs-accept'), 'job acceptance', ACCEPTANCE_CODES),
    validationCodes('facts:quote-codes', 'Job quote codes', pageUrl('jobs-quote'), 'job quote request', QUOTE_CODES),
    // What this build is, as the current-release descriptor serves it (fixed at build, as that file is).
    document('facts:release', 'Current release', routeUrl('release-current'), [
      {
        text: `This build is version ${buildInfo().version} of ${buildInfo().packageName}, built from git commit ${buildInfo().commit} (\`release.version\` and \`release.site_commit\` of GET /api/agent-economy/release/current).`,
        cues: ['version', 'deployed', 'running', 'release', 'build', 'built', 'commit', 'git', 'current', 'now'],
      },
    ]),
    // A term a document of its own, so that its definition is cited by its own anchor.
    ...GLOSSARY.terms.map((term) =>
      document(`facts:glossary:${term.id}`, `Glossary: ${term.term}`, siteUrl(`/glossary/#${term.id}`), [
        { text: term.definition, cues: [...DEFINITION, ...term.also.flatMap((also) => also.split(/\s+/))] },
      ]),
    ),
  ];
}

/** The assistant's terms follow the running configuration: read when the corpus is, never at build. */
export function termsFactDocument(): FactDocument {
  return document('json:/api/assistant/terms', 'Assistant terms', routeUrl('assistant-terms'), assistantTermsFacts(buildAssistantTerms(paidTurnConfig, new Date())));
}
