/**
 * The forbidden-claims matcher against the published list (content/forbidden-claims.json): every
 * way of dressing a claim up that we know of is caught, every clear disclaimer passes, and the JSON
 * walk finds claims in any string of a body, at the right JSON Pointer.
 */
import { describe, expect, it } from 'vitest';
import forbiddenClaimsContent from '../../content/forbidden-claims.json' with { type: 'json' };
import { forbiddenClaimsListSchema } from '../../schemas/agent-common.ts';
import { compileClaimMatcher, findClaims, findClaimsInJson } from '../../src/domain/forbidden-claims.ts';

const list = forbiddenClaimsListSchema.parse(forbiddenClaimsContent);
const matcher = compileClaimMatcher(list);
const claimIds = (text: string) => findClaims(text, matcher).map((match) => match.claimId);

describe('forbidden claims: evasions that must still be caught', () => {
  it.each([
    ['plain', 'Mainnet ready', ['mainnet-ready']],
    ['upper case with a hyphen', 'MAINNET-READY', ['mainnet-ready']],
    ['snake case', 'mainnet_ready', ['mainnet-ready']],
    ['words run together', 'mainnetready', ['mainnet-ready']],
    ['a word split', 'main net ready', ['mainnet-ready']],
    ['letters spaced out', 'm a i n n e t   r e a d y', ['mainnet-ready']],
    ['letters dotted', 'm.a.i.n.n.e.t r.e.a.d.y', ['mainnet-ready']],
    ['a variant wording', 'Ready for mainnet!', ['mainnet-ready']],
    ['alternating case', 'AuDiTeD', ['audited']],
    ['hyphenated letters', 'a-u-d-i-t-e-d', ['audited']],
    ['Cyrillic а', '\u0430udited', ['audited']],
    ['Cyrillic і and е', 'aud\u0456t\u0435d', ['audited']],
    ['Cyrillic ѕ, е, с and о in other claims', 'ri\u0455k fr\u0435e and \u0441ust\u043Edy', ['custody', 'risk-free']],
    ['Cyrillic р and у', '\u0440r\u043Eduction re\u0430d\u0443', ['production-ready']],
    ['Greek capital alpha and omicron', '\u0391UDITED by pr\u03BFs', ['audited']],
    ['Greek small alpha', '\u03B1udited', ['audited']],
    ['fullwidth letters', '\uFF41\uFF55\uFF44\uFF49\uFF54\uFF45\uFF44', ['audited']],
    ['mathematical bold letters', '\u{1D41A}\u{1D42E}\u{1D41D}\u{1D422}\u{1D42D}\u{1D41E}\u{1D41D}', ['audited']],
    ['small capitals', '\u1D00\u1D1C\u1D05\u026A\u1D1B\u1D07\u1D05', ['audited']],
    ['a zero-width space inside', 'au\u200Bdited', ['audited']],
    ['zero-width joiner and a BOM inside', 'au\u200Ddi\uFEFFted', ['audited']],
    ['a soft hyphen inside', 'au\u00ADdited', ['audited']],
    ['a right-to-left override in front', '\u202Eaudited', ['audited']],
    ['combining accents', 'a\u0300u\u0301di\u0301te\u0301d', ['audited']],
    ['precomposed accents', 'àúdítéd', ['audited']],
    ['a variation selector inside', 'aud\uFE0Fited', ['audited']],
    ['digits for letters', '4ud1t3d', ['audited']],
    ['a zero for o', 'Full cust0dy of your keys', ['custody']],
    ['digits in a two-word phrase', 'r1sk-fr33', ['risk-free']],
    ['ones for l', 'fu11y secure', ['security-guarantee']],
    ['a dollar sign for s', 'e$crow service', ['escrow']],
    ['runs of spaces', 'guaranteed     returns', ['guaranteed-returns']],
    ['a newline between the words', 'guaranteed\nreturns', ['guaranteed-returns']],
    ['a tab between the words', 'guaranteed\treturns', ['guaranteed-returns']],
    ['a no-break space', 'guaranteed\u00A0returns', ['guaranteed-returns']],
    ['an ideographic space', 'guaranteed\u3000returns', ['guaranteed-returns']],
    ['an en dash', 'risk\u2013free', ['risk-free']],
    ['a percent sign', '100% secure', ['security-guarantee']],
    ['an inflected form', 'Funds are escrowed until delivery', ['escrow']],
    ['an adjective form', 'A custodial wallet for agents', ['custody']],
    ['a hyphenated variant', 'production-grade', ['production-ready']],
    ['an endorsement', 'Officially endorsed by the Ergo Foundation', ['endorsement']],
    ['HTML-like markup around it', '<b>audited</b>', ['audited']],
    ['inside a URL', 'https://example.org/reports/fully-audited', ['audited']],
    ['two claims in one string', 'Audited and production ready', ['audited', 'production-ready']],
  ])('%s: %j', (_what, text, expected) => {
    expect(claimIds(text)).toEqual(expected);
  });
});

describe('forbidden claims: negations that do not make a disclaimer', () => {
  it.each([
    ['a clause break after the negation', 'Not a scam, audited', ['audited']],
    ['a full stop after the negation', 'Not. Audited.', ['audited']],
    ['"not only"', 'not only audited but also fully secure', ['audited', 'security-guarantee']],
    ['"no doubt"', 'no doubt audited', ['audited']],
    ['a double negation', 'not not audited', ['audited']],
    ['a negated verb that asserts', "We can't deny it is audited", ['audited']],
    ['"and" ends the negation', 'not audited and mainnet ready', ['mainnet-ready']],
    ['a list after a comma', 'no custody, escrow or keys', ['escrow']],
    ['a negation after the phrase in prose', 'audited, not hacked', ['audited']],
    ['"no" followed by more words after a colon', 'audited: no doubt', ['audited']],
    ['a negation too far away', 'not the kind of thing anyone would call audited', ['audited']],
  ])('%s: %j', (_what, text, expected) => {
    expect(claimIds(text)).toEqual(expected);
  });
});

describe('forbidden claims: disclaimers and ordinary words that pass', () => {
  it.each([
    ['not audited', 'This service is not audited.'],
    ['not yet audited', 'Not yet audited.'],
    ['a long neutral run', 'The contracts have not yet been independently audited.'],
    ['a contraction', "It isn't audited"],
    ['a curly-apostrophe contraction', 'It isn\u2019t audited and it doesn\u2019t hold custody'],
    ['a prefix', 'unaudited testnet code'],
    ['a hyphenated prefix', 'un-audited testnet code'],
    ['no custody', 'no custody'],
    ['never holds custody', 'The agent never holds custody of user funds.'],
    ['never takes custody', 'never takes custody'],
    ['non-custodial', 'A non-custodial helper'],
    ['non-custodial with a non-breaking hyphen', 'Non\u2011custodial'],
    ['without escrow', 'Settles without escrow'],
    ['a list with or', 'does not offer escrow or custody'],
    ['a repeated negation', 'no custody and no escrow'],
    ['zero custody', 'zero custody'],
    ['not mainnet ready', 'This is not mainnet-ready software'],
    ['not production ready', 'is not production ready'],
    ['not risk free', 'Agents acting on a chain are never risk-free.'],
    ['a key set to false', 'mainnet_ready=false'],
    ['a key set to none', 'custody: none'],
    ['a key that is false', 'production_custody is false'],
    ['a related but different word', 'An auditor will review it'],
    ['audit alone', 'The audit report is pending'],
    ['mainnet alone', 'The mainnet gate is closed'],
    ['main network', 'The main network is ready for nothing here'],
    ['testnet ready', 'testnet ready'],
    ['readiness', 'Mainnet readiness is not claimed'],
    ['a phrase inside a longer word', 'escrowless custodyship'],
    ['free alone', 'A free service with risk disclosed'],
    ['an address', '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw'],
    ['an empty string', ''],
  ])('%s: %j', (_what, text) => {
    expect(claimIds(text)).toEqual([]);
  });
});

describe('forbidden claims: what a finding says', () => {
  it('quotes the original text with invisible characters shown as escapes', () => {
    const [match] = findClaims('Totally au\u200Bdited!', matcher);
    expect(match).toMatchObject({ claimId: 'audited', phrase: 'audited', excerpt: 'au\\u{200B}dited' });
    expect(match!.why).toBe(list.claims.find((claim) => claim.id === 'audited')!.why);
  });

  it('reports a claim once per string however often it appears, and the first non-negated occurrence', () => {
    expect(findClaims('not audited, but AUDITED, audited', matcher)).toEqual([expect.objectContaining({ claimId: 'audited', excerpt: 'AUDITED' })]);
  });

  it('every phrase and variant of the list matches itself and is a disclaimer after "not"', () => {
    for (const claim of list.claims) {
      for (const wording of [claim.phrase, ...claim.variants]) {
        expect(claimIds(`We are ${wording} today`), wording).toContain(claim.id);
        expect(claimIds(`We are not ${wording} today`), `not ${wording}`).not.toContain(claim.id);
      }
    }
  });

  it('refuses a list entry that folds to nothing', () => {
    expect(() => compileClaimMatcher({ ...list, claims: [{ id: 'empty', phrase: '--', variants: [], why: 'x' }] })).toThrow(/has no letters or digits/);
  });
});

describe('forbidden claims across a whole JSON body', () => {
  it('walks every string at any depth, including unknown keys and array items, with escaped JSON Pointers', () => {
    const body = {
      name: 'Receipt digest',
      description: 'Non-custodial digest service.',
      endpoints: [{ purpose: 'Returns a mainnet ready report' }, { purpose: 'ok' }],
      evidence: { links: [{ url: 'https://example.org/fully-audited' }] },
      'odd/key~name': ['fine', 'guaranteed returns'],
      nested: { deeper: { deepest: [[['r i s k   f r e e']]] } },
      count: 3,
      flag: true,
      nothing: null,
    };
    expect(findClaimsInJson(body, matcher).map(({ path, claimId }) => [path, claimId])).toEqual([
      ['/endpoints/0/purpose', 'mainnet-ready'],
      ['/evidence/links/0/url', 'audited'],
      ['/odd~1key~0name/1', 'guaranteed-returns'],
      ['/nested/deeper/deepest/0/0/0', 'risk-free'],
    ]);
  });

  it('checks a bare string body and finds nothing in numbers, booleans and null', () => {
    expect(findClaimsInJson('audited', matcher).map((finding) => finding.path)).toEqual(['']);
    expect(findClaimsInJson([1, true, null, { a: 2 }], matcher)).toEqual([]);
  });
});
