/**
 * The README and docs/*.md as pages of the site and as documents of the assistant's corpus: a
 * section each, cited by an anchor its page has; a table's rows as lines carrying their header's
 * words; a short command joined to the line that leads into it.
 */
import { describe, expect, it } from 'vitest';
import { docPagePath, docSections, MARKDOWN_DOCS, markdownCorpus, renderDoc } from '../../src/build/markdown-documents.ts';

const readme = MARKDOWN_DOCS.find((doc) => doc.slug === 'readme')!;

describe('the project\'s Markdown documents', () => {
  it('cuts each into sections cited by an anchor its page has', () => {
    for (const doc of MARKDOWN_DOCS) {
      const ids = new Set([...renderDoc(doc).html.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id!));
      const sections = docSections(doc);
      expect(sections.length, doc.file).toBeGreaterThan(1);
      for (const section of sections) {
        const anchor = new URL(section.url).hash.slice(1);
        expect(new URL(section.url).pathname, section.id).toBe(docPagePath(doc));
        if (anchor) expect(ids.has(anchor), `${section.id} -> #${anchor}`).toBe(true);
      }
    }
    // The benchmark log is a page, not something the assistant quotes.
    expect(markdownCorpus().some((section) => section.id.startsWith('doc:performance'))).toBe(false);
    expect(markdownCorpus().some((section) => section.id.startsWith('doc:x402-ergo'))).toBe(true);
  });

  it('reads a table row as a line naming its thing, qualified by its middle cells, asked for by its header', () => {
    const configuration = docSections(readme).find((section) => section.title === 'README: Configuration')!;
    const lines = configuration.text.split('\n');
    const at = lines.findIndex((line) => line.startsWith('`ASSISTANT_TOKEN_LIFETIME_SECONDS`'));
    expect(lines[at]).toBe('`ASSISTANT_TOKEN_LIFETIME_SECONDS` (default `1800`): lifetime of a payment token issued by verify-payment');
    expect(configuration.cues[at]).toEqual(['variable', 'default', 'meaning']);
    // Prose lines carry no cues.
    expect(configuration.cues[0]).toBeNull();
  });

  it('joins a short command to the line that leads into it, and leaves longer scripts out', () => {
    const commands = docSections(readme).find((section) => section.title === 'README: Two commands')!;
    expect(commands.text).toMatch(/^Start the service: .*: `npm install && npm start`$/m);
    expect(markdownCorpus().every((section) => !section.text.includes('curl -fsS $BASE'))).toBe(true);
  });

  it('renders links between the docs as links between their pages, drops HTML comments, and lets tables scroll on a phone', () => {
    const page = renderDoc(readme);
    expect(page.title).toBe('Agent Economy Proof Surface');
    expect(page.html).toContain('href="/docs/deployment/#the-embedded-store"');
    expect(page.html).not.toContain('<!--');
    expect(page.html).toMatch(/<div class="scroll" tabindex="0" role="group" aria-label="Table: [^"]+"><table>/);
    expect(page.html).toContain('<h2 id="configuration">Configuration</h2>');
  });
});
