/**
 * A question read as what it asks: its sentences and clauses that ask something ("which header
 * carries the offer", "what happens if the Note is unconfirmed", "explain the checkpoint") are its
 * parts, each answered on its own; the sentences that only tell (who is asking, what they build,
 * "thanks") are its context, whose words help a part that names little itself ("and what do we get
 * back?"). A support ticket of four asks was judged as one question before, and the words of the
 * other three asks counted against each answer. Pure.
 */

export interface QuestionPart {
  /** The clause that asks. */
  text: string;
  /** What it leans on first: the sentence that told just before it and the clauses of its own sentence before it. */
  near: string;
  /** Then the rest of what the question tells (who asks, what they build). */
  far: string;
}

export interface QuestionParts {
  /** What the question asks, in order: each a clause of its own. */
  parts: QuestionPart[];
  /** Asks beyond MAX_PARTS, left out of the answer and said so. */
  dropped: number;
}

/** Asks answered in one answer; a longer list is cut, and the answer says how many it left out. */
export const MAX_PARTS = 6;

/** A question longer than this (characters) is read up to it: a ticket's asks come well before. */
const MAX_READ_CHARACTERS = 4_000;

/** Words that open a clause that asks. */
const QUESTION_WORDS = 'what|what\'s|whats|which|how|how\'s|when|where|why|who|whom|whose|whether|is|are|was|were|am|can|could|do|does|did|should|shall|will|would|may|might|must|has|have|had|isn\'t|aren\'t|doesn\'t|don\'t|can\'t|won\'t';
/** Verbs that ask when they open a sentence ("explain the checkpoint", "tell me which header"). */
const IMPERATIVES = 'explain|describe|list|name|show|tell|give|define|compare|clarify|confirm|summari[sz]e|outline|walk|point|detail|help|recommend|suggest';
/** A telling sentence that still asks ("we would like to know which...", "I wonder whether..."). */
const ASKS_INSIDE = /\b(?:(?:want|like|need|wish|have|trying|try|hoping|hope) to (?:know|understand|learn|find out|confirm|check)|wonder(?:ing)?|not (?:sure|clear)|unclear|curious|(?:can|could|would) you (?:tell|explain|say|confirm|clarify|point)|please (?:tell|explain|say|confirm|clarify|describe|list|advise)|let (?:me|us) know|questions? (?:is|are|about)|asking (?:about|whether|if|what|which|how))\b/i;

/** Leads that may come before the asking word: "And", "Also,", "Second:", "(2)", "3.", "Q:", "Question 4:". */
const LEAD = String.raw`(?:(?:\(?\d{1,2}[.):]|[a-z][.)]|[-*•]|q\d*[.:]?|question\s*\d*[.:]?|also|and|but|so|then|plus|finally|first(?:ly)?|second(?:ly)?|third(?:ly)?|lastly|next|ok(?:ay)?|hi|hello|hey|thanks|thank you|please|one more(?: thing)?|one last thing)[\s,:;-]*)*`;

const ASKING_START = new RegExp(`^${LEAD}(?:${QUESTION_WORDS}|${IMPERATIVES})\\b`, 'i');

/** "for the 410, what should...", "as for retries, how...": what a clause is about, then its word that asks. */
const ABOUT_THEN_ASKS = String.raw`(?:for|about|regarding|as for|as to|on|in|with)\s+[^,;?]{1,40}?,?\s+(?:what|which|how|when|where|why|who)\b`;

/** Where a sentence splits into clauses: a comma, semicolon or "and"/"or" before a word that asks. */
const CLAUSE_BREAK = new RegExp(
  `(?:[,;:]\\s*(?:and|or|but|also|plus|then)?|\\s(?:and|or|but|also|plus)(?:\\s+also)?)\\s+(?=(?:${QUESTION_WORDS}|${IMPERATIVES})\\b|${ABOUT_THEN_ASKS})`,
  'gi',
);

/** Ends a sentence: ?, ! or a full stop before a capital, a digit, a quote or an opening bracket; a line break; a numbered step. */
const SENTENCE_END = /(?<=[?!])\s+|(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|no))\.\s+(?=[A-Z0-9"'`(\[])|\n+|\s+(?=\(\d{1,2}\)\s)/g;

/** Whether `sentence` asks something (a question mark, a word that asks at its start, or a phrase that asks inside). */
export function asks(sentence: string): boolean {
  const text = sentence.trim();
  return text.endsWith('?') || ASKING_START.test(text) || ASKS_INSIDE.test(text);
}

/** "when we retry, ...", "if the Note is late, ...", "for the 410, ...": a condition or a topic of the clause after it, not an ask of its own ("when is", "where do" ask). */
const CONDITION = new RegExp(`^(?:when|where|if|whether|once|after|before|while|for|about|regarding|as for|as to)\\s+(?!(?:${QUESTION_WORDS})\\b)`, 'i');

/**
 * The clauses of an asking sentence, each starting with its own word that asks, and what leads into
 * them ("Three quick things:", "First, verify-payment refused our key with a 400, ..."), which tells
 * rather than asks. A clause too short to ask anything, or a condition, stays with its neighbour.
 */
function clausesOf(sentence: string): { lead: string; clauses: string[] } {
  const pieces = sentence.split(CLAUSE_BREAK).map((piece) => piece.trim()).filter(Boolean);
  // What leads in tells ("Three quick things:"); a condition ("If I apply for a job, ...") belongs to the ask after it.
  const lead = pieces.length > 1 && !ASKING_START.test(pieces[0]!) && !ASKS_INSIDE.test(pieces[0]!) && !CONDITION.test(pieces[0]!) ? pieces.shift()! : '';
  const clauses: string[] = [];
  let condition = '';
  for (const piece of pieces) {
    if (CONDITION.test(piece) && !piece.endsWith('?')) {
      condition = `${condition}${piece}, `;
      continue;
    }
    // "is it X or Y": an "or is" that offers an alternative, not a new ask, stays with the clause it completes.
    if (clauses.length && !condition && piece.split(/\s+/).length < 3) clauses[clauses.length - 1] += ` ${piece}`;
    else clauses.push(`${condition}${piece}`);
    condition = '';
  }
  if (condition) clauses.push(condition.replace(/, $/, ''));
  return { lead, clauses };
}

/**
 * A date or a time a ticket is stamped with ("2026-12-06 22:41 UTC", "at 14:05"): when it was
 * written, not what it asks; a time zone's name would otherwise weigh as a word of the domain.
 */
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:\s?(?:Z|UTC|GMT|CET|CEST|EST|EDT|PST|PDT|[+-]\d{2}:?\d{2})\b)?|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?(?:[ap]\.?m\.?|Z|UTC|GMT|CET|CEST|EST|EDT|PST|PDT)\b)?/gi;

/** "What happened: our agent paid a Note...": a label of a few words before a colon, then what it labels. */
const LABEL = /^([\p{L}\p{N}#'’ -]{1,40}?):\s+(?=\S)/u;

/** The question cut into the parts it asks and the context around them. */
export function questionParts(question: string): QuestionParts {
  const text = question
    .slice(0, MAX_READ_CHARACTERS)
    .replace(TIMESTAMP, ' ')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    // What a stamp leaves at the start of a line ("2026-12-06 22:41 UTC: ...") is no label.
    .replace(/^[ \t]*[:,;–—-][ \t]*/gm, '')
    .trim();
  const sentences = text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence))
    .flatMap((sentence) => {
      // A label tells; what follows it asks or tells on its own.
      const label = LABEL.exec(sentence);
      return label && label[1]!.split(' ').length <= 3 ? [{ sentence: label[1]!, label: true }, { sentence: sentence.slice(label[0].length), label: false }] : [{ sentence, label: false }];
    });
  const read = sentences.map(({ sentence, label }) => (!label && asks(sentence) ? clausesOf(sentence) : { lead: sentence, clauses: [] }));
  const far = read.map(({ lead }) => lead).filter(Boolean).join(' ');
  const parts: QuestionPart[] = [];
  const asked = new Set<string>();
  let lastTold = '';
  for (const { lead, clauses } of read) {
    let near = `${lastTold} ${lead}`.trim();
    for (const clause of clauses) {
      // The same ask twice (pasted again, repeated for emphasis) is one part.
      const key = clause.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
      if (asked.has(key)) continue;
      asked.add(key);
      parts.push({ text: clause, near, far });
      near = `${near} ${clause}`.trim();
    }
    if (lead) lastTold = lead;
  }
  // A question that asks nothing in so many words ("token lifetime", "R4 register meaning") is one part.
  if (parts.length === 0) return { parts: text ? [{ text, near: '', far: '' }] : [], dropped: 0 };
  return { parts: parts.slice(0, MAX_PARTS), dropped: Math.max(0, parts.length - MAX_PARTS) };
}

/** What the site answers of a question, part by part, before anyone pays for it. */
export interface QuestionJudgement {
  /** Some part is answered: an answer would say something other than "nothing on this site answers". */
  answerable: boolean;
  /** Each part the question asks, in order, and whether the site answers it. */
  parts: Array<{ text: string; answered: boolean }>;
  /** Parts beyond those an answer takes, left out. */
  dropped: number;
}

/** A part as a reason names it: its words, shortened. */
const named = (text: string) => {
  const words = text.replace(/\s+/g, ' ').replace(/[\s?.!,;:]+$/, '');
  return `"${words.length > 90 ? `${words.slice(0, 87).replace(/\s+\S*$/, '')}...` : words}"`;
};

/**
 * What a premium quote says it buys, before anyone pays: the whole question, or which of its parts
 * the answer will answer and which it will name as not answered here.
 */
export function judgementReason(judgement: QuestionJudgement): string {
  const { parts, dropped } = judgement;
  const answered = parts.filter((part) => part.answered);
  const missing = parts.filter((part) => !part.answered);
  const left = dropped > 0 ? ` It takes the first ${parts.length} questions asked and leaves ${dropped} more out: ask them on their own.` : '';
  if (parts.length === 1 && dropped === 0) return 'This site answers this question: the answer quotes its pages.';
  if (missing.length === 0) return `This question asks ${parts.length} things and this site answers each of them: ${parts.map((part, at) => `(${at + 1}) ${named(part.text)}`).join(', ')}.${left}`;
  const numbered = (list: typeof parts) => list.map((part) => `(${parts.indexOf(part) + 1}) ${named(part.text)}`).join(', ');
  return `This question asks ${parts.length} things; this site answers ${answered.length} of them, ${numbered(answered)}, and does not say ${numbered(missing)}: the answer will name what it does not answer.${left}`;
}
