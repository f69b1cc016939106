/**
 * The project's own Markdown documentation (README.md and docs/*.md) as pages of the site
 * (`/docs/<slug>/`) and as documents of the assistant's corpus: the README and the specifications
 * answer most of what integrators ask (how to pay over MCP, what two instances must share, how a
 * lost turn comes back), so the assistant must be able to quote them, and a citation must land on
 * a page. Markdown is read with `marked`'s lexer: the page renders its tokens as HTML, the corpus
 * takes their text, one document per section, so both say the same thing.
 */
import { existsSync, readFileSync } from 'node:fs';
import GithubSlugger from 'github-slugger';
import { Marked, type Token, type Tokens } from 'marked';
import { siteUrl } from '../config/site.ts';

export interface MarkdownDoc {
  /** Its page is `/docs/<slug>/`. */
  slug: string;
  /** Path from the repository root. */
  file: string;
  /** The page's short name, which titles its sections in citations. */
  title: string;
  /** One line on the index of the docs. */
  summary: string;
  /** Part of the assistant's corpus; the benchmark log is figures and runs, not answers. */
  inCorpus: boolean;
}

export const MARKDOWN_DOCS: readonly MarkdownDoc[] = [
  { slug: 'faq', file: 'docs/faq.md', title: 'Questions people ask', summary: 'Short answers to what newcomers and integrators ask most: costs, lifetimes, refunds, keys, the faucet, the sandbox, receipts, the log, running it.', inCorpus: true },
  { slug: 'readme', file: 'README.md', title: 'README', summary: 'Running the service and its tests, every configuration variable, the paid turn step by step, the MCP host, the command line, how it is built.', inCorpus: true },
  { slug: 'x402-ergo', file: 'docs/x402-ergo.md', title: 'x402 on Ergo', summary: 'The x402 scheme `exact` on Ergo: Note payments over HTTP, MCP and A2A, the facilitator, retries and errors.', inCorpus: true },
  { slug: 'transparency-log', file: 'docs/transparency-log.md', title: 'Receipt transparency log', summary: 'The receipt transparency log: checkpoints, tiles, proofs, the signing key, monitors and what the log proves.', inCorpus: true },
  { slug: 'deployment', file: 'docs/deployment.md', title: 'Deployment', summary: 'Running several instances: the embedded store or PostgreSQL, Redis, what every instance must share, what is kept.', inCorpus: true },
  { slug: 'architecture', file: 'docs/architecture.md', title: 'Architecture', summary: 'How the code is laid out and which way its imports run.', inCorpus: true },
  { slug: 'performance', file: 'docs/performance.md', title: 'Performance', summary: 'The benchmark figures of each release and how they were measured.', inCorpus: false },
];

/**
 * The repository's root: the nearest folder above this module holding the project's package.json
 * and README.md. This module runs from src/ (tests) and from the build's prerender bundle
 * (dist/server/.prerender/chunks/), so a fixed relative path fits only one of them.
 */
function repositoryRoot(): URL {
  for (let folder = new URL('./', import.meta.url); ; folder = new URL('../', folder)) {
    if (existsSync(new URL('package.json', folder)) && existsSync(new URL('README.md', folder))) return folder;
    if (folder.pathname === '/') throw new Error(`markdown documents: no repository root (package.json and README.md) above ${import.meta.url}`);
  }
}

/** Where a document's page lives. */
export const docPagePath = (doc: MarkdownDoc) => `/docs/${doc.slug}/`;

/** The page a relative link of the docs points at: another document's page, or nothing (a file of the repository). */
function pageOfLink(href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return href;
  const [file = '', anchor] = href.split('#');
  if (file === '') return anchor === undefined ? undefined : `#${anchor}`;
  const target = MARKDOWN_DOCS.find((doc) => doc.file === file.replace(/^\.\//, '') || doc.file === `docs/${file.replace(/^\.\//, '')}`);
  if (!target) return undefined;
  return `${docPagePath(target)}${anchor === undefined ? '' : `#${anchor}`}`;
}

export interface RenderedDoc {
  doc: MarkdownDoc;
  title: string;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function source(doc: MarkdownDoc): string {
  return readFileSync(new URL(doc.file, repositoryRoot()), 'utf8');
}

/**
 * A document's page body: headings carry the ids GitHub gives them (so `docs/x.md#anchor` links
 * keep working), relative links point at the docs' pages (a link to a file of the repository
 * becomes its text), tables scroll in their own box on a phone, HTML comments are dropped.
 */
export function renderDoc(doc: MarkdownDoc): RenderedDoc {
  const slugger = new GithubSlugger();
  let title = doc.slug;
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }) {
        const id = slugger.slug(text);
        if (depth === 1) title = plainText(tokens);
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, tokens }) {
        const target = pageOfLink(href);
        const text = this.parser.parseInline(tokens);
        return target === undefined ? text : `<a href="${escapeHtml(target)}">${text}</a>`;
      },
      html({ text }) {
        return /^\s*<!--/.test(text) ? '' : escapeHtml(text);
      },
    },
  });
  // A table scrolls in its own box on a phone, which a keyboard can reach and a screen reader names
  // (by the section it stands in); a header cell left empty in the Markdown is a plain cell.
  let section = doc.title;
  const html = marked
    .parse(source(doc), { async: false })
    .replace(/<h[1-3] id="[^"]*">(.*?)<\/h[1-3]>|<table>/g, (match, heading: string | undefined) => {
      if (heading !== undefined) {
        section = decodeEntities(heading.replace(/<[^>]+>/g, ''));
        return match;
      }
      return `<div class="scroll" tabindex="0" role="group" aria-label="${escapeHtml(`Table: ${section}`)}"><table>`;
    })
    .replace(/<\/table>/g, '</table></div>')
    .replace(/<th>\s*<\/th>/g, '<td></td>');
  return { doc, title, html };
}

/** The text of inline tokens: code keeps its backticks (a variable, a path), links their words. */
function plainText(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'codespan':
          return `\`${(token as Tokens.Codespan).text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")}\``;
        case 'html':
          return '';
        case 'br':
          return ' ';
        case 'escape':
          return (token as Tokens.Escape).text;
        default:
          return 'tokens' in token && token.tokens ? plainText(token.tokens) : decodeEntities((token as { text?: string }).text ?? '');
      }
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

const decodeEntities = (text: string) => text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** A code block short enough to be what a sentence points at (`npm install && npm start`), not a script. */
const SHORT_CODE_LINES = 2;
const SHORT_CODE_CHARACTERS = 160;

/**
 * A table row as a line of prose: the first cell names the thing, the last says what it is, and
 * the cells between qualify it by their headers ("`PORT` (default `4321`): port the server listens on").
 */
function tableRow(header: readonly string[], cells: readonly string[]): string {
  const [first = '', ...rest] = cells;
  if (rest.length === 0) return first;
  const last = rest.at(-1)!;
  const middle = rest.slice(0, -1).flatMap((cell, at) => (cell ? [`${header[at + 1]?.toLowerCase() ?? ''} ${cell}`.trim()] : []));
  return `${first}${middle.length ? ` (${middle.join('; ')})` : ''}: ${last}`;
}

export interface DocSection {
  id: string;
  title: string;
  url: string;
  /** Prose, one passage per line. */
  text: string;
  /**
   * Words a question may use for a line that the line does not write, by line: a table's row is
   * asked for by its table's header ("which variable", "which command").
   */
  cues: Array<string[] | null>;
  /** A section titled by a question answers it: the question, and the other ways it is asked (`<!-- also asked: a | b -->` under it). */
  asked?: string[];
}

/**
 * A document cut at its headings (levels 1 to 3), one section each, cited by the page's anchor:
 * paragraphs and list items a line each, a table a line per row, a short code block joined to the
 * line that leads into it; longer code and HTML comments are left out (they are not sentences).
 */
export function docSections(doc: MarkdownDoc): DocSection[] {
  const slugger = new GithubSlugger();
  const page = docPagePath(doc);
  const sections: DocSection[] = [];
  let current: { title: string; anchor: string; lines: string[]; cues: Array<string[] | null>; asked: string[] } | undefined;
  const close = () => {
    if (current && current.lines.length) {
      sections.push({
        id: `doc:${doc.slug}#${current.anchor}`,
        title: current.title,
        url: siteUrl(`${page}${current.anchor ? `#${current.anchor}` : ''}`),
        text: current.lines.join('\n'),
        cues: current.cues,
        ...(current.asked.length ? { asked: current.asked } : {}),
      });
    }
  };
  const add = (line: string, cues: string[] | null = null) => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (!text) return;
    current ??= { title: doc.title, anchor: '', lines: [], cues: [], asked: [] };
    current.lines.push(text);
    current.cues.push(cues);
  };

  const walk = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const heading = token as Tokens.Heading;
          const anchor = slugger.slug(heading.text);
          const text = plainText(heading.tokens);
          if (heading.depth <= 3) {
            close();
            current = { title: heading.depth === 1 ? doc.title : `${doc.title}: ${text}`, anchor: heading.depth === 1 ? '' : anchor, lines: [], cues: [], asked: text.endsWith('?') ? [text] : [] };
          } else add(text);
          break;
        }
        case 'html': {
          const also = /^\s*<!--\s*also asked:\s*([\s\S]*?)\s*-->\s*$/i.exec((token as Tokens.HTML).text);
          if (also && current?.asked.length) current.asked.push(...also[1]!.split('|').map((asked) => asked.trim()).filter(Boolean));
          break;
        }
        case 'paragraph':
          add(plainText((token as Tokens.Paragraph).tokens));
          break;
        case 'list':
          for (const item of (token as Tokens.List).items) {
            const [lead, ...nested] = item.tokens;
            add(lead && 'tokens' in lead ? plainText(lead.tokens) : plainText([lead!].filter(Boolean) as Token[]));
            walk(nested.filter((child) => child.type !== 'text'));
          }
          break;
        case 'table': {
          const table = token as Tokens.Table;
          const header = table.header.map((cell) => plainText(cell.tokens));
          for (const row of table.rows) add(tableRow(header, row.map((cell) => plainText(cell.tokens))), header);
          break;
        }
        case 'blockquote':
          walk((token as Tokens.Blockquote).tokens);
          break;
        case 'code': {
          const lines = (token as Tokens.Code).text.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line && !line.startsWith('#'));
          const previous = current?.lines.at(-1);
          if (previous !== undefined && lines.length <= SHORT_CODE_LINES && lines.join(' ').length <= SHORT_CODE_CHARACTERS) {
            current!.lines[current!.lines.length - 1] = `${previous.replace(/:$/, '')}: ${lines.map((line) => `\`${line}\``).join(', then ')}`;
          }
          break;
        }
        default:
          break;
      }
    }
  };
  walk(new Marked({ gfm: true }).lexer(source(doc)));
  close();
  return sections;
}

/** The documents of the corpus: every section of every document the assistant quotes. */
export function markdownCorpus(): DocSection[] {
  return MARKDOWN_DOCS.filter((doc) => doc.inCorpus).flatMap(docSections);
}
