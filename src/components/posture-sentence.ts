/**
 * What a descriptor's posture means, in one sentence a page opens with, instead of a heading over a
 * bare `false`. Built from the values the body states and from the mainnet gate's blockers
 * (MAINNET_BLOCKERS, the list the gate itself is built from), so the sentence says what the data
 * says and changes with it. Pure: the page renders the text (backticks become code, Prose.astro).
 */
import { MAINNET_BLOCKERS } from '../descriptors/common.ts';
import { humanize } from './format.ts';

/** The posture fields a sentence reads; any of them may be absent from a body. */
export interface PostureFacts {
  mainnet_ready: boolean;
  network?: string;
  production_custody?: boolean;
}

/**
 * The posture a descriptor body states: its `posture` object, else the same fields at its top level
 * (a body that spreads them, such as the first-receipt guide). Undefined when it states no
 * `mainnet_ready`: a body's own `network` (a policy profile's, say) is not a posture.
 */
export function postureOf(body: Readonly<Record<string, unknown>>): PostureFacts | undefined {
  const nested = body.posture;
  const source = nested && typeof nested === 'object' && !Array.isArray(nested) ? (nested as Record<string, unknown>) : body;
  if (typeof source.mainnet_ready !== 'boolean') return undefined;
  return {
    mainnet_ready: source.mainnet_ready,
    ...(typeof source.network === 'string' ? { network: source.network } : {}),
    ...(typeof source.production_custody === 'boolean' ? { production_custody: source.production_custody } : {}),
  };
}

/** `External audit …` as it reads inside a sentence: `external audit …`. */
const inSentence = (label: string): string => label.charAt(0).toLowerCase() + label.slice(1);

/** The headline (`Mainnet: not ready`) and the sentence after it, each raw value quoted in backticks. */
export function postureSentence(posture: PostureFacts, blockers: ReadonlyArray<{ label: string }> = MAINNET_BLOCKERS): { headline: string; text: string } {
  const readiness = posture.mainnet_ready
    ? '(`mainnet_ready: true`).'
    : `(\`mainnet_ready: false\`) — the mainnet gate is closed until these exist: ${blockers.map((blocker) => inSentence(blocker.label)).join('; and ')}.`;
  const scope = [
    posture.network === undefined ? '' : `acts on the ${humanize(posture.network)} only (\`network: ${posture.network}\`)`,
    posture.production_custody === undefined ? '' : `holds ${posture.production_custody ? '' : 'no '}production custody (\`production_custody: ${posture.production_custody}\`)`,
  ].filter(Boolean);
  return {
    headline: `Mainnet: ${posture.mainnet_ready ? 'ready' : 'not ready'}`,
    text: scope.length ? `${readiness} It ${scope.join(' and ')}.` : readiness,
  };
}
