/**
 * The words of a question and of the site's sentences, made comparable: lower case, a light
 * suffix-stripping stem (so "registers" meets "register" and "signed" meets "signs"), and the
 * domain's vocabulary, where a question's word stands for the words the pages use (a question about
 * "registers" is answered by the sentence naming R4, R5 and R6; "nanoERG" by one in ERG). Pure.
 */

/** Words too common to say what a question is after. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could do does did for from has have how i if in into is it its me my of on or our should so ' +
    'that the their them then there these they this those to was we were what when where which who whom why will with would you your ' +
    'about any some tell explain please also just get got need needs must may might one use used using there here than other such ' +
    'site service page carry carries hold holds contain contains mean means work works happen know find say take give make want go stay ' +
    'does doe many often ever happen happens way ways able want wants see show shows look looks like own run running people according through ' +
    // What is left of a contraction once its apostrophe splits it ("doesn't": doesn, t).
    've ll re doesn don isn aren didn won wouldn shouldn couldn wasn weren hasn haven hadn'
  ).split(' '),
);

/** Strips the common English inflections; applied alike to the index and to questions, so it need only be consistent. */
export function stem(word: string): string {
  let term = word.toLowerCase().replace(/'s$/, '');
  // "signing" is sign; "mining" stays whole, not min.
  if (term.length > 6 && term.endsWith('ing')) term = term.slice(0, -3);
  else if (term.length > 4 && term.endsWith('ies')) term = `${term.slice(0, -3)}y`;
  else if (term.length > 4 && term.endsWith('ed')) term = term.slice(0, -2);
  else if (term.length > 3 && term.endsWith('s') && !term.endsWith('ss')) term = term.slice(0, -1);
  // A final e goes too, so that "release" meets "released" and "require" meets "required".
  if (term.length > 4 && term.endsWith('e')) term = term.slice(0, -1);
  return term;
}

/** The words of `text`, split as the index splits them (letters, digits, `_` and `-` inside a word). */
export function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
}

/** The stems of the words of `text` and of the parts of its identifiers. */
export const stemsOf = (text: string): Set<string> => new Set(wordsAndPartsOf(text).map(stem));

/**
 * The words of `text` with the parts of its identifiers too: `payment_token_used` also reads as
 * payment, token, used, and `minConfirmations` as min, confirmations, so a question in plain words
 * meets the sentence that names the code.
 */
export function wordsAndPartsOf(text: string): string[] {
  return wordsOf(text).flatMap((word) => {
    const parts = word.split(/_|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
    return parts.length > 1 ? [word, ...parts] : [word];
  });
}

/**
 * A question's word (stemmed) and the stems the site's sentences use for the same thing. Each
 * entry is one concept: a sentence answers it when it holds any of the stems; a stem ending in `*`
 * is a beginning (`expir*`: expiry, expires, expiration).
 */
const PRICE = ['price', 'cost', 'amount'];
const SIZE = ['max*', 'largest', 'limit', 'size', 'kib', 'larger'];
/** "How must amounts be written?" asks for their format. */
const WRITTEN = ['writ*', 'format*', 'decimal*', 'digit', 'string'];
/** "How is it computed?" is answered by the sentence that names the hash or the derivation. */
const COMPUTE = ['comput*', 'calculat*', 'deriv*', 'blake2b256'];

/** An alternative as the index holds it: a stem, or a stem's beginning (`recompute*` is `recomput*`). */
const asStem = (alternative: string) => (alternative.endsWith('*') ? `${stem(alternative.slice(0, -1))}*` : stem(alternative));

/**
 * Written in plain words, looked up and matched as stems: an entry keyed `embed` must be found under
 * `emb`, the stem a question's "embed" becomes, and its alternatives must be the stems the index holds
 * (a beginning too: `recompute*` meets "recomputed" as `recomput*`).
 */
function asStems(entries: Readonly<Record<string, readonly string[]>>): Readonly<Record<string, readonly string[]>> {
  return Object.fromEntries(Object.entries(entries).map(([word, alternatives]) => [stem(word), alternatives.map(asStem)]));
}

const VOCABULARY = asStems({
  register: ['register', 'r4', 'r5', 'r6'],
  r4: ['r4', 'reserve'],
  r5: ['r5', 'expiry'],
  r6: ['r6', 'task'],
  nanoerg: ['nanoerg', 'erg'],
  erg: ['erg', 'nanoerg'],
  price: PRICE,
  cost: PRICE,
  much: [...PRICE, 'much'],
  pay: ['pay', 'paid', 'payment', 'price'],
  payment: ['payment', 'pay', 'paid'],
  expire: ['expir*', 'lifetime', 'valid'],
  expiry: ['expir*'],
  long: ['lifetime', 'valid', 'second', 'minute', 'expir*'],
  valid: ['valid', 'lifetime', 'expir*'],
  lifetime: ['lifetime', 'valid', 'second'],
  confirm: ['confirmation', 'confirm'],
  confirmation: ['confirmation', 'confirm'],
  sign: ['sign', 'signature'],
  key: ['key', 'custody'],
  error: ['error', 'problem', 'code'],
  problem: ['problem', 'error'],
  free: ['free', 'allowance'],
  allowance: ['allowance', 'free'],
  wallet: ['wallet'],
  policy: ['polic*'],
  check: ['check', 'verify'],
  verify: ['verif*', 'check'],
  mainnet: ['mainnet'],
  gate: ['gate'],
  limit: ['limit', 'rate_limited', 'rate'],
  reuse: ['reuse', 'used', 'single', 'once'],
  different: ['different', 'another', 'other', 'mismatch'],
  two: ['two', 'another'],
  embed: ['embed', 'widget', 'element'],
  feed: ['feed', 'activity', 'recent'],
  responsible: ['responsible', 'owner'],
  low: ['low', 'below', 'minimum', 'under'],
  minimum: ['minimum', 'min', 'least', 'lowest'],
  settle: ['settl*'],
  buy: ['buy', 'sold', 'purchas*'],
  maximum: SIZE,
  largest: SIZE,
  large: SIZE,
  size: ['size', 'max*', 'kib', 'byte'],
  format: ['format', 'json', 'rfc'],
  send: ['send', 'request', 'body', 'post'],
  genuine: ['genuine', 'recompute*', 'verif*'],
  write: WRITTEN,
  written: WRITTEN,
  compute: COMPUTE,
  calculate: COMPUTE,
  connect: ['connect', 'client', 'endpoint', 'url'],
  download: ['download', 'path', 'url'],
  step: ['step', 'then', 'first'],
  // Plain words for the domain's own, as a newcomer asks: each entry one concept of the site in the
  // everyday words people use for it, so a question in those words finds the sentence in the site's.
  coin: ['erg', 'nanoerg', 'faucet', 'testnet'],
  money: ['erg', 'nanoerg', 'fund*', 'value'],
  fund: ['fund*', 'erg', 'custody'],
  currency: ['erg', 'nanoerg', 'currency'],
  crypto: ['erg', 'ergo', 'testnet'],
  test: ['testnet', 'sandbox', 'test'],
  fake: ['testnet', 'sandbox', 'tamper*', 'forg*'],
  practice: ['sandbox', 'testnet'],
  simulate: ['simulat*', 'sandbox'],
  real: ['mainnet', 'genuine', 'verif*', 'recompute*'],
  authentic: ['genuine', 'verif*', 'recompute*'],
  production: ['mainnet', 'production'],
  launch: ['mainnet', 'gate', 'open*'],
  bot: ['agent'],
  ai: ['agent', 'model', 'assistant'],
  llm: ['model', 'assistant', 'openai'],
  chatbot: ['assistant', 'widget'],
  website: ['embed*', 'widget', 'element', 'application'],
  plugin: ['widget', 'element', 'embed*'],
  component: ['widget', 'element', 'embed*'],
  computer: ['local*', 'machine', 'start'],
  laptop: ['local*', 'machine', 'start'],
  locally: ['local*', 'machine', 'start'],
  install: ['install*', 'start'],
  setup: ['install*', 'start', 'configur*'],
  host: ['host', 'deploy*', 'instance', 'start'],
  database: ['store', 'database', 'postgresql', 'sqlite'],
  db: ['store', 'database', 'postgresql', 'sqlite'],
  alive: ['health', 'live'],
  online: ['health', 'live', 'reachable'],
  healthy: ['health'],
  down: ['health', 'unavailable', 'unreachable', 'live'],
  outage: ['unavailable', 'unreachable', 'live'],
  bug: ['security', 'advisory', 'vulnerabilit*', 'issue'],
  vulnerability: ['security', 'advisory', 'vulnerabilit*'],
  report: ['report*', 'advisory', 'issue'],
  support: ['support*', 'issue', 'contact'],
  approve: ['human', 'confirm*'],
  approval: ['human', 'confirm*'],
  manually: ['human', 'confirm*'],
  myself: ['human', 'confirm*', 'own'],
  budget: ['spend', 'cap', 'limit', 'daily'],
  spend: ['spend', 'cap', 'amount'],
  big: ['above', 'max*', 'threshold', 'cap', 'larg*'],
  delete: ['delet*', 'remov*', 'monitor', 'fork', 'append*'],
  remove: ['remov*', 'delet*', 'monitor', 'append*'],
  disappear: ['remov*', 'delet*', 'monitor', 'fork'],
  tamper: ['tamper*', 'rewrit*', 'fork', 'monitor', 'recompute*'],
  rewrite: ['rewrit*', 'fork', 'monitor', 'consisten*'],
  history: ['log', 'history', 'append*'],
  ledger: ['log', 'append*'],
  inside: ['contain*', 'hold*', 'field', 'part'],
  seed: ['seed', 'phrase', 'private', 'custody'],
  mnemonic: ['seed', 'phrase', 'private', 'custody'],
  password: ['key', 'secret', 'bearer'],
  audit: ['audit*', 'review*'],
  apply: ['accept*', 'intent'],
  immediately: ['automatic*', 'assign*'],
  automatically: ['automatic*', 'assign*'],
  earn: ['reward', 'earn*', 'pay*'],
  bounty: ['job', 'reward'],
  gig: ['job', 'reward'],
  task: ['job', 'task'],
  directory: ['registry', 'listing'],
  marketplace: ['registry', 'listing', 'job'],
  refund: ['refund*'],
  fail: ['fail*', 'error', 'refus*'],
  wrong: ['fail*', 'error', 'refus*', 'invalid'],
  broken: ['fail*', 'error', 'unavailable'],
  trust: ['trust*', 'verif*', 'pin*'],
  secure: ['secur*', 'verif*'],
  safe: ['safe*', 'never', 'custody'],
  change: ['chang*', 'rewrit*', 'tamper*'],
  begin: ['start*', 'first', 'discovery'],
  start: ['start*', 'first', 'discovery'],
  discover: ['discovery', 'descriptor', 'well-known'],
  throttle: ['rate', 'limit', 'rate_limited'],
  spam: ['rate', 'limit', 'rate_limited'],
  licence: ['licen*', 'mit'],
  license: ['licen*', 'mit'],
});

/**
 * Terms of more than one word, read as one concept: "proof of work" is the faucet's challenge (its
 * nonce and difficulty), where "work" alone says nothing and "proof" alone is the proof explorer's.
 */
const PHRASES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/\bproofs?[\s-]+of[\s-]+work\b/gi, ['proof', 'nonce', 'difficulty*', 'challeng*'].map(asStem)],
  [/\b(?:main|real|production|live)[\s-]+(?:network|net|chain)\b/gi, ['mainnet']],
  [/\btest[\s-]+(?:network|net|chain)\b/gi, ['testnet']],
  [/\b(?:test|play|fake|free)[\s-]+(?:coins?|money|funds?|erg)\b/gi, ['testnet', 'erg', 'faucet']],
  [/\bseed[\s-]+phrases?\b/gi, ['seed', 'phrase', 'custody', 'private'].map(asStem)],
  [/\bprivate[\s-]+keys?\b/gi, ['private', 'key', 'custody', 'seed'].map(asStem)],
  [/\bchat[\s-]*(?:box|window|widget|bubble)\b/gi, ['widget', 'element', 'assistant', 'embed'].map(asStem)],
  [/\bmoney[\s-]+back\b/gi, ['refund*'].map(asStem)],
  [/\b(?:my|our) own (?:computer|machine|laptop|server)\b|\blocally\b/gi, ['local*', 'machine', 'start'].map(asStem)],
  [/\bget back\b/gi, ['return*', 'answer*', 'response', 'receipt'].map(asStem)],
];

/** "How long may a question be?" asks for a length, where "how long does a quote stay valid?" asks for a time. */
const ASKS_FOR_LENGTH = /\bhow long (?:may|can|could|should|must|is|are)\b[^?]*\bbe\s*\??\s*$/i;
const LENGTH = ['character', 'length', 'max*', 'long'];

/** The stems a question's word stands for. */
export function alternativesOf(stemmed: string): readonly string[] {
  return VOCABULARY[stemmed] ?? [stemmed];
}

/** A concept of a question: the word it was written as (a phrase's words), and the stems that stand for it. */
export interface QuestionConcept {
  word: string;
  alternatives: string[];
}

/** The concepts of a question, with the words they were written as, in order, without repeats. */
export function questionConceptWords(question: string): QuestionConcept[] {
  const seen = new Set<string>();
  const concepts: QuestionConcept[] = [];
  const length = ASKS_FOR_LENGTH.test(question);
  let words = question;
  for (const [phrase, alternatives] of PHRASES) {
    const found = words.match(phrase);
    if (!found) continue;
    words = words.replace(phrase, ' ');
    concepts.push({ word: found[0], alternatives: [...alternatives] });
  }
  for (const word of wordsAndPartsOf(words)) {
    if (word.length < 2 || STOP_WORDS.has(word.toLowerCase())) continue;
    const stemmed = stem(word);
    if (seen.has(stemmed)) continue;
    seen.add(stemmed);
    concepts.push({ word, alternatives: [...new Set(length && stemmed === 'long' ? LENGTH : alternativesOf(stemmed))] });
  }
  return concepts;
}

/** The concepts of a question: one list of alternative stems per meaningful word, in order, without repeats. */
export function questionConcepts(question: string): string[][] {
  return questionConceptWords(question).map(({ alternatives }) => alternatives);
}
