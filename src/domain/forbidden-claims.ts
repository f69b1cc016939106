/**
 * The forbidden-claims matcher shared by the publish, job acceptance and job quote validations.
 *
 * A submitter who wants a claim through will dress it up: capitals, hyphens, dots between the
 * letters, fullwidth or mathematical letters, Cyrillic and Greek look-alikes, zero-width characters,
 * digits for letters. So every string is first folded to a skeleton in which all of those read the
 * same, then split into words, and a phrase matches when a run of consecutive words spells it with
 * the separators ignored (`mainnet-ready`, `mainnetready`, `m a i n n e t  r e a d y`). A phrase
 * never matches inside a longer word, so `unaudited` is not `audited`.
 *
 * A match is dropped when it is a disclaimer: a negation stands before it in the same clause with
 * only neutral words between (`not audited`, `never holds custody`, `non-custodial`), or it is a
 * key set to false/none/no (`custody: none`). Anything that is not neutral between the two (`not
 * only audited`, `no doubt audited`), a clause break (`Not a scam, audited`) or an even number of
 * negations keeps the claim. `content/forbidden-claims.json` describes the same rules to users.
 *
 * Pure: no I/O. Offsets into the original string are kept so a finding can quote what it matched.
 */
import type { ForbiddenClaimsList } from '../../schemas/agent-common.ts';

/** Latin look-alikes that NFKC leaves alone: Cyrillic, Greek, small capitals and a few Latin letters. */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic lower case
  а: 'a', в: 'b', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ӏ: 'l', ү: 'y',
  // Armenian
  ո: 'n', ս: 'u', օ: 'o',
  // Cyrillic upper case (their lower-case forms are not all look-alikes, so map before lower-casing)
  А: 'a', В: 'b', Е: 'e', Ё: 'e', Н: 'h', І: 'i', Ї: 'i', Ј: 'j', К: 'k', М: 'm', О: 'o', Р: 'p', С: 'c', Т: 't', У: 'y', Х: 'x', Ѕ: 's', Ԁ: 'd', Ԛ: 'q', Ԝ: 'w', Ӏ: 'l', Ү: 'y',
  // Greek
  α: 'a', β: 'b', γ: 'y', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w',
  Α: 'a', Β: 'b', Ε: 'e', Ζ: 'z', Η: 'h', Ι: 'i', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y', Χ: 'x',
  // Latin small capitals and other letters NFKC keeps
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't',
  ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ʏ: 'y', ᴢ: 'z', ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', ɵ: 'o', ø: 'o', đ: 'd', ħ: 'h', ł: 'l', ŧ: 't', ß: 'ss',
  // apostrophes, so contractions are recognised whatever quote mark is used
  '\u2019': "'", '\u2018': "'", '\u02BC': "'", '\u0060': "'", '\u00B4': "'", '\u2032': "'",
};

/**
 * Characters that render as nothing or only change how neighbours render: format characters
 * (zero-width space and joiners, soft hyphen, direction marks, tag characters), combining marks,
 * variation selectors and the Hangul fillers that display as blank.
 */
const INVISIBLE = /[\p{Cf}\p{Mn}\p{Me}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180E\u3164\uFFA0\uFE00-\uFE0F]/u;
const COMBINING = /\p{M}/gu;

/** Digits read as the letters they stand in for, and `l` read as `i` (so `1`, `l` and `i` are one letter). */
const SKELETON: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', l: 'i' };

/** Between two words, any of these ends the clause a negation covers. */
const CLAUSE_BREAK = /[.!?;,:\n\r\u2013\u2014\u2026\u3001\u3002\u00A1\u00BF]/;

const NEGATIONS = ['not', 'no', 'never', 'without', 'non', 'nor', 'neither', 'none', 'nothing', 'zero', 'cannot', 'un', 'lacks', 'lacking'];

/**
 * Words that may stand between a negation and the phrase without changing what is negated. Short on
 * purpose: a word outside this list (`only`, `doubt`, `but`, `and`) ends the negation's reach.
 */
const NEUTRAL = [
  'a', 'an', 'the', 'any', 'yet', 'ever', 'still', 'currently', 'also',
  'be', 'been', 'being', 'is', 'are', 'was', 'were', 'am', 'has', 'have', 'had', 'do', 'does', 'did',
  'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'ca', 'wo',
  'it', 'its', 'this', 'that', 'we', 'our', 'you', 'your', 'they', 'their', 'us',
  'service', 'services', 'agent', 'agents', 'user', 'users', 'client', 'clients', 'customer', 'customers', 'provider',
  'fund', 'funds', 'key', 'keys', 'asset', 'assets', 'value', 'money', 'erg', 'tokens',
  'in', 'of', 'for', 'to', 'by', 'under', 'with', 'into', 'on', 'as', 'or',
  'hold', 'holds', 'held', 'holding', 'take', 'takes', 'taking', 'took', 'keep', 'keeps', 'kept',
  'provide', 'provides', 'providing', 'offer', 'offers', 'offering', 'claim', 'claims', 'claimed', 'claiming',
  'intended', 'meant', 'designed', 'considered', 'described', 'presented', 'marketed', 'need', 'needs', 'require', 'requires',
  'formally', 'independently', 'externally', 'third', 'party', 'external', 'independent', 'formal', 'security', 'smart', 'contract', 'contracts',
];

/** After a phrase, `custody: none` or `mainnet_ready is false` turn it into a disclaimer. */
const POST_NEUTRAL = ['is', 'are', 'was', 'be', 'set', 'to', 'equals', 'always'];
const POST_NEGATIONS = ['false', 'none', 'no'];

/** Words scanned before a phrase for its negation: enough for `has not yet been independently audited`. */
const NEGATION_REACH = 6;

interface Token {
  /** Skeleton of the word. */
  text: string;
  /** UTF-16 offsets of the word in the original string. */
  start: number;
  end: number;
  /** Folded separator text between the previous word and this one. */
  before: string;
}

/** Folded forms of the non-ASCII characters seen so far; a text repeats few distinct characters. */
const folded = new Map<string, string>();
const FOLD_CACHE_LIMIT = 8192;

function foldCharacter(character: string): string {
  // Most text is ASCII, which NFKC, the look-alike map and mark stripping all leave as it is.
  const code = character.charCodeAt(0);
  if (code < 0x80) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : character;
  const known = folded.get(character);
  if (known !== undefined) return known;
  let out = '';
  for (const piece of character.normalize('NFKC')) {
    const mapped = (CONFUSABLES[piece] ?? piece).toLowerCase().normalize('NFD').replace(COMBINING, '');
    for (const letter of mapped) out += CONFUSABLES[letter] ?? letter;
  }
  if (folded.size < FOLD_CACHE_LIMIT) folded.set(character, out);
  return out;
}

/** The folded text with, for each of its UTF-16 units, the offset of the original code point it came from. */
function fold(text: string): { folded: string; origin: number[] } {
  let out = '';
  const origin: number[] = [];
  let offset = 0;
  for (const character of text) {
    if (!INVISIBLE.test(character)) {
      const piece = foldCharacter(character);
      out += piece;
      for (let i = 0; i < piece.length; i++) origin.push(offset);
    }
    offset += character.length;
  }
  origin.push(offset);
  // Symbols written for letters inside a word (`b@d`, `e$crow`); the same length keeps `origin` aligned.
  return { folded: out.replace(/(?<=[\p{L}\p{N}])[@$](?=[\p{L}\p{N}])/gu, (symbol) => (symbol === '@' ? 'a' : 's')), origin };
}

const skeleton = (word: string): string => word.replace(/[013457l]/g, (character) => SKELETON[character] ?? character);

/** Words of `text` (letters and digits), with contractions split: `isn't` is `is not`. */
function tokenize(text: string): Token[] {
  const { folded, origin } = fold(text);
  const tokens: Token[] = [];
  let previousEnd = 0;
  for (const match of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = folded.slice(previousEnd, start);
    const last = tokens.at(-1);
    if (last && match[0] === 't' && before === "'" && last.text.endsWith('n')) {
      last.text = last.text.slice(0, -1);
      if (!last.text) tokens.pop();
      tokens.push({ text: 'not', start: origin[start]!, end: origin[end]!, before: ' ' });
    } else {
      tokens.push({ text: skeleton(match[0]), start: origin[start]!, end: origin[end]!, before });
    }
    previousEnd = end;
  }
  return tokens;
}

/**
 * Every wording of every claim as a skeleton with separators removed, in a trie of characters, so a
 * run of words is compared with all wordings at once and each character of a body is visited only
 * as often as the longest wording is long.
 */
interface TrieNode {
  readonly next: Map<string, TrieNode>;
  /** Claims one of whose wordings ends exactly here. */
  readonly ends: number[];
}

export interface ClaimMatcher {
  readonly claims: ForbiddenClaimsList['claims'];
  readonly wordings: TrieNode;
  readonly negations: ReadonlySet<string>;
  readonly neutral: ReadonlySet<string>;
  readonly postNeutral: ReadonlySet<string>;
  readonly postNegations: ReadonlySet<string>;
}

const wordSet = (words: readonly string[]) => new Set(words.map(skeleton));

/** Prepares the list for matching; throws when a phrase folds to nothing (a content error). */
export function compileClaimMatcher(list: ForbiddenClaimsList): ClaimMatcher {
  const wordings: TrieNode = { next: new Map(), ends: [] };
  list.claims.forEach((claim, claimIndex) => {
    for (const wording of [claim.phrase, ...claim.variants]) {
      const compact = tokenize(wording)
        .map((token) => token.text)
        .join('');
      if (!compact) throw new Error(`forbidden claims: "${wording}" of claim "${claim.id}" has no letters or digits`);
      let node = wordings;
      for (const character of compact) {
        let child = node.next.get(character);
        if (!child) node.next.set(character, (child = { next: new Map(), ends: [] }));
        node = child;
      }
      if (!node.ends.includes(claimIndex)) node.ends.push(claimIndex);
    }
  });
  return {
    claims: list.claims,
    wordings,
    negations: wordSet(NEGATIONS),
    neutral: wordSet(NEUTRAL),
    postNeutral: wordSet(POST_NEUTRAL),
    postNegations: wordSet(POST_NEGATIONS),
  };
}

export interface ClaimMatch {
  claimId: string;
  phrase: string;
  why: string;
  /** The original text that matched, with invisible characters shown as escapes. */
  excerpt: string;
}

interface Span {
  claimIndex: number;
  first: number;
  /** One past the last word. */
  end: number;
}

/** Every run of whole words spelling a wording of a claim. */
function spans(tokens: readonly Token[], matcher: ClaimMatcher): Span[] {
  const found: Span[] = [];
  for (let first = 0; first < tokens.length; first++) {
    let node: TrieNode | undefined = matcher.wordings;
    for (let end = first; end < tokens.length && node; ) {
      for (const character of tokens[end]!.text) {
        node = node.next.get(character);
        if (!node) break;
      }
      end++;
      for (const claimIndex of node?.ends ?? []) found.push({ claimIndex, first, end });
    }
  }
  return found;
}

function negatedBefore(tokens: readonly Token[], span: Span, claimWords: ReadonlySet<number>, matcher: ClaimMatcher): boolean {
  let negations = 0;
  for (let index = span.first - 1, scanned = 0; index >= 0 && scanned < NEGATION_REACH; index--, scanned++) {
    if (CLAUSE_BREAK.test(tokens[index + 1]!.before)) break;
    const word = tokens[index]!.text;
    if (matcher.negations.has(word)) negations++;
    else if (!matcher.neutral.has(word) && !claimWords.has(index)) break;
  }
  return negations % 2 === 1;
}

function negatedAfter(tokens: readonly Token[], span: Span, matcher: ClaimMatcher): boolean {
  for (let index = span.end; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (/[^\s:="'`]/.test(token.before)) return false;
    if (matcher.postNeutral.has(token.text)) continue;
    if (!matcher.postNegations.has(token.text)) return false;
    const next = tokens[index + 1];
    return next === undefined || CLAUSE_BREAK.test(next.before);
  }
  return false;
}

/** Invisible and control characters written as `\u{…}` so a reader sees the trick that was tried. */
function visible(text: string): string {
  const shown = text.replace(/[\p{Cf}\p{Cc}\p{Mn}\p{Me}\p{Zs}\u3164\uFFA0]/gu, (character) =>
    character === ' ' ? ' ' : `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );
  return shown.length > 120 ? `${shown.slice(0, 117)}...` : shown;
}

/** The claims `text` makes, at most one match per claim (the first that is not a disclaimer). */
export function findClaims(text: string, matcher: ClaimMatcher): ClaimMatch[] {
  if (!text) return [];
  const tokens = tokenize(text);
  const found = spans(tokens, matcher);
  if (found.length === 0) return [];
  const claimWords = new Set<number>();
  for (const span of found) for (let index = span.first; index < span.end; index++) claimWords.add(index);
  const matches = new Map<number, ClaimMatch>();
  for (const span of found) {
    if (matches.has(span.claimIndex)) continue;
    if (negatedBefore(tokens, span, claimWords, matcher) || negatedAfter(tokens, span, matcher)) continue;
    const claim = matcher.claims[span.claimIndex]!;
    const excerpt = visible(text.slice(tokens[span.first]!.start, tokens[span.end - 1]!.end));
    matches.set(span.claimIndex, { claimId: claim.id, phrase: claim.phrase, why: claim.why, excerpt });
  }
  return [...matches.entries()].sort(([a], [b]) => a - b).map(([, match]) => match);
}

export interface ClaimFinding extends ClaimMatch {
  /** JSON Pointer of the string in the submission. */
  path: string;
}

const pointerSegment = (key: string | number) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Every claim in every string value of `value`, whatever its key or depth (keys themselves are not
 * text a reader is shown, and unknown keys are a schema finding already). Bodies reach this only
 * after the JSON reader's nesting limit, so the recursion is bounded.
 */
export function findClaimsInJson(value: unknown, matcher: ClaimMatcher): ClaimFinding[] {
  const findings: ClaimFinding[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === 'string') {
      for (const match of findClaims(node, matcher)) findings.push({ ...match, path });
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${path}/${index}`));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) walk(child, `${path}/${pointerSegment(key)}`);
    }
  };
  walk(value, '');
  return findings;
}
