/**
 * How descriptor data becomes page text: key names, our own URLs as site paths, commands, tables,
 * and the API reference's reading of JSON Schema. Pure functions, shared by the build-time renderer
 * and the browser scripts.
 */
import { describe, expect, it } from 'vitest';
import { cardTitle, codeClass, humanize, isCommand, isLinkable, isTabular, isToken, localHref, proseParts, wrapPieces } from '../../src/components/format.ts';
import { fieldRows, typeOf, variantsOf } from '../../src/build/schema-fields.ts';

describe('format', () => {
  it.each([
    ['latest_full_receipt_id', 'Latest full receipt ID'],
    ['mcp_tools_api', 'MCP tools API'],
    ['priceNanoErg', 'Price nanoERG'],
    ['noteBoxId', 'Note box ID'],
    ['agent-card', 'Agent card'],
    ['caip', 'CAIP'],
  ])('humanize(%s) is %s', (key, label) => expect(humanize(key)).toBe(label));

  it('turns URLs on this site into paths and keeps every other URL', () => {
    const base = 'http://127.0.0.1:4321';
    expect(localHref('http://127.0.0.1:4321/api/jobs', base)).toBe('/api/jobs');
    expect(localHref('http://127.0.0.1:4321', base)).toBe('/');
    expect(localHref('http://127.0.0.1:43210/api/jobs', base)).toBe('http://127.0.0.1:43210/api/jobs');
    expect(localHref('http://127.0.0.1:4322/health', base)).toBe('http://127.0.0.1:4322/health');
  });

  it('links only URLs without template placeholders', () => {
    expect(isLinkable('http://127.0.0.1:4321/api/assistant/receipt/{id}')).toBe(false);
    expect(isLinkable('https://example.org/a b')).toBe(false);
    expect(isLinkable('https://example.org/a')).toBe(true);
    expect(isLinkable('/api/jobs')).toBe(false);
  });

  it('recognises commands by key or by their first word', () => {
    expect(isCommand('command', 'anything')).toBe(true);
    expect(isCommand('curl', 'anything')).toBe(true);
    expect(isCommand('label', 'curl -sS https://x')).toBe(true);
    expect(isCommand('label', 'Read the curl output')).toBe(false);
    expect(isCommand('install', 'In a checkout run `npm install ./packages/x`.')).toBe(false);
  });

  it('shows identifiers, hashes and patterns as code, and words and sentences as text', () => {
    for (const token of ['^[0-9a-f]{64}$', 'testnet_live_proof', 'svc.agent_economy.x.v0', '5a'.repeat(32)]) expect(isToken(token), token).toBe(true);
    for (const text of ['Registration', 'short_id', 'Two words here', 'well-known-path']) expect(isToken(text), text).toBe(false);
  });

  it('sets backticked words and bare long values of prose as code, their brackets and punctuation as text', () => {
    const root = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
    expect(proseParts(`The checkpoint of size 0, root ${root}, verifies (see \`ok\` and summary.mainnet_gate_status).`)).toEqual([
      { text: 'The checkpoint of size 0, root ', code: false },
      { text: root, code: true },
      { text: ', verifies (see ', code: false },
      { text: 'ok', code: true },
      { text: ' and ', code: false },
      { text: 'summary.mainnet_gate_status', code: true },
      { text: ').', code: false },
    ]);
    // Words, hyphenated compounds, quoted words and plurals in brackets stay text, however long.
    const words = 'Transparency “verification” of the site-docs-sentences provider: 2 confirmation(s).';
    expect(proseParts(words)).toEqual([{ text: words, code: false }]);
  });

  it('marks long code to wrap in a table and short code to keep its line; cuts a long value after its separators', () => {
    expect(codeClass('5a'.repeat(32))).toBe('token');
    expect(codeClass('answering')).toBeUndefined();
    expect(wrapPieces('/api/agent-economy/live')).toEqual(['/', 'api/', 'agent-economy/', 'live']);
    expect(wrapPieces('question_matches_quote')).toEqual(['question_', 'matches_', 'quote']);
    expect(wrapPieces('summary.gates_live').join('')).toBe('summary.gates_live');
  });

  it('tables only flat arrays of objects with few columns', () => {
    expect(isTabular([{ a: 1, b: ['x'] }, { a: 2, c: null }])).toBe(true);
    expect(isTabular([{ a: { nested: true } }])).toBe(false);
    expect(isTabular([{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }])).toBe(false);
    expect(isTabular([1, 2])).toBe(false);
    expect(isTabular([])).toBe(false);
  });

  it('titles a card by its label, title, name or id', () => {
    expect(cardTitle({ id: 'x', label: 'Label' })).toBe('Label');
    expect(cardTitle({ code: 'c' })).toBe('c');
    expect(cardTitle({ value: 1 })).toBeUndefined();
  });
});

describe('schema fields', () => {
  const schema = {
    type: 'object',
    required: ['profile'],
    properties: {
      profile: {
        type: 'object',
        required: ['network'],
        description: 'The profile.',
        properties: { network: { type: 'string', const: 'testnet' }, caps: { type: 'array', items: { type: 'object', properties: { amount: { type: 'string', pattern: '^\\d+$' } } } } },
      },
      note: { type: 'string', minLength: 1, maxLength: 4000 },
      count: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
      kind: { type: 'string', enum: ['a', 'b'] },
    },
  };

  it('reads types the way a person writes them', () => {
    expect(typeOf(schema.properties.note)).toBe('string (1 to 4000 characters)');
    expect(typeOf(schema.properties.count)).toBe('integer (≥ 1)');
    expect(typeOf(schema.properties.kind)).toBe('one of: a, b');
    expect(typeOf(schema.properties.profile.properties.network)).toBe('"testnet"');
    expect(typeOf({ $ref: '#/components/schemas/Problem' })).toBe('see Problem');
  });

  it('flattens nested objects and arrays of objects into dotted rows with required flags', () => {
    expect(fieldRows(schema).map((row) => [row.path, row.required])).toEqual([
      ['profile', true],
      ['profile.network', true],
      ['profile.caps', false],
      ['profile.caps[].amount', false],
      ['note', false],
      ['count', false],
      ['kind', false],
    ]);
  });

  it('shows each object variant of a union apart', () => {
    const union = { oneOf: [{ properties: { tier: { const: 'free' } } }, { properties: { tier: { const: 'premium' } } }] };
    expect(variantsOf(union)).toHaveLength(2);
    expect(variantsOf({ type: 'string' })).toHaveLength(1);
  });
});
