/**
 * <agent-economy-assistant>: the paid assistant turn as an embeddable custom element.
 *
 * Ask a question; the service answers with a free-tier decision (the answer follows at once) or a
 * premium quote whose Note requirements a wallet must meet. The host application's wallet creates
 * the Note on the Ergo testnet, either through the `pay` hook or by pasting the Note box id; the
 * element verifies the payment, continues the turn with the single-use payment token and links the
 * receipt. The element never signs, never holds a key and never sees a seed phrase.
 *
 * Attributes:
 *   api-base      origin of the service (default: the page's own origin)
 *   receipt-base  where receipt pages live (default: `${api-base}/receipt/`)
 * Property:
 *   pay           optional async (quote, question) => noteBoxId, supplied by the host wallet
 * Events (bubbling, composed): assistant-quote, assistant-payment-request, assistant-payment-verified,
 *   assistant-answer, assistant-error; `detail` carries the data of each step (never the token).
 */

import { Lexer } from 'marked';

const NOTE_BOX_ID = /^[0-9a-fA-F]{64}$/;
const STEPS = { quote: '/api/assistant/quote', verify: '/api/assistant/verify-payment', chat: '/api/assistant/chat' };

const STYLE = `
  :host { display: block; color: inherit; font: inherit; }
  .panel { border: 1px solid var(--line, #c8c8d0); border-radius: .5rem; padding: 1rem; }
  label { font-weight: 600; display: block; margin-bottom: .25rem; }
  textarea, input { width: 100%; font: inherit; color: inherit; background: var(--bg, #fff); border: 1px solid var(--muted, #555); border-radius: .3rem; padding: .4rem .5rem; box-sizing: border-box; }
  input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  button { font: inherit; margin-top: .5rem; padding: .35rem .9rem; border-radius: .3rem; border: 1px solid var(--link, #0b4fb3); background: var(--link, #0b4fb3); color: var(--bg, #fff); cursor: pointer; }
  button.secondary { background: transparent; color: var(--link, #0b4fb3); }
  button:disabled { opacity: .6; cursor: progress; }
  button:focus-visible, textarea:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid var(--link, #0b4fb3); outline-offset: 2px; }
  a { color: var(--link, #0b4fb3); }
  .step { margin-top: 1rem; padding-top: .75rem; border-top: 1px solid var(--line, #c8c8d0); }
  .step h3 { margin: 0 0 .5rem; font-size: 1.05rem; }
  .answer blockquote { margin: .5rem 0; padding: .1rem .75rem; border-left: 3px solid var(--line, #c8c8d0); }
  .answer p { margin: .4rem 0; }
  .answer pre { overflow-x: auto; padding: .5rem; background: var(--code-bg, #f1f2f5); }
  .problem { border-left: 4px solid var(--bad, #a4161a); padding: .25rem .75rem; }
  .bad { color: var(--bad, #a4161a); font-weight: 700; }
  .ok { color: var(--ok, #0a6b2f); font-weight: 700; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; padding: .25rem .4rem; border-bottom: 1px solid var(--line, #c8c8d0); overflow-wrap: normal; }
  /* Words in a cell stay whole (the page's own wrapping rule is inherited otherwise); a table wider than the element scrolls in its own box. */
  .scroll { overflow-x: auto; background: linear-gradient(to left, var(--bg, #fff) 40%, transparent) right center / 2rem 100% no-repeat local, radial-gradient(farthest-side at 100% 50%, rgb(0 0 0 / .3), transparent) right center / .9rem 100% no-repeat scroll; }
  /* A type name (Coll[Byte]) is short and read whole; only the long hex values break anywhere. */
  code.whole { white-space: nowrap; overflow-wrap: normal; }
  .muted { color: var(--muted, #4a4a55); }
`;

/** Builds an element without innerHTML: nothing the service answers is ever parsed as markup. */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Whether `href` may be a link: the web, or a path of the service; never `javascript:` and the like. */
const LINKABLE = /^(?:https?:\/\/|\/(?!\/)|#)/i;

/** Markdown inline tokens (marked's lexer) as DOM nodes; what is not plain formatting stays text. */
function inline(tokens) {
  return (tokens ?? []).map((token) => {
    switch (token.type) {
      case 'strong':
        return h('strong', {}, inline(token.tokens));
      case 'em':
        return h('em', {}, inline(token.tokens));
      case 'del':
        return h('del', {}, inline(token.tokens));
      case 'codespan':
        return h('code', {}, decodeEntities(token.text));
      case 'br':
        return h('br');
      case 'link':
        return LINKABLE.test(token.href) ? h('a', { href: token.href }, inline(token.tokens)) : inline(token.tokens);
      case 'text':
        return token.tokens ? inline(token.tokens) : decodeEntities(token.text);
      default:
        return decodeEntities(token.raw ?? token.text ?? '');
    }
  });
}

/** Markdown blocks as DOM nodes, built with `h` like the rest of the element: an answer is never parsed as HTML. */
function blocks(tokens) {
  return (tokens ?? []).map((token) => {
    switch (token.type) {
      case 'paragraph':
        return h('p', {}, inline(token.tokens));
      case 'blockquote':
        return h('blockquote', {}, blocks(token.tokens));
      case 'heading':
        return h('p', {}, h('strong', {}, inline(token.tokens)));
      case 'list':
        return h(token.ordered ? 'ol' : 'ul', {}, token.items.map((item) => h('li', {}, blocks(item.tokens))));
      case 'code':
        return h('pre', {}, h('code', {}, token.text));
      case 'text':
        return h('p', {}, token.tokens ? inline(token.tokens) : decodeEntities(token.text));
      case 'space':
      case 'hr':
        return null;
      default:
        return h('p', {}, token.raw ?? '');
    }
  });
}

/** The lexer leaves entities of the source escaped in text; they are text here. */
const decodeEntities = (text) => String(text).replace(/&(amp|lt|gt|quot|#39);/g, (_, name) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]);

/** An answer's Markdown (quotes, links to the pages it cites, code) as the element shows it. */
export function renderAnswer(markdown) {
  return h('div', { class: 'answer' }, blocks(new Lexer({ gfm: true }).lex(String(markdown))));
}

const STATUS_MEANING = {
  400: 'the request was refused as invalid',
  402: 'payment is required or could not be verified against the quote',
  404: 'not found',
  410: 'the quote has expired; ask again for a new quote',
  429: 'too many requests; wait and retry',
  501: 'this step is documented but not implemented by this deployment yet',
  503: 'a dependency of this step is not configured or not available right now',
};

export class AgentEconomyAssistant extends HTMLElement {
  // `pay` (async (quote, question) => noteBoxId) is a plain property the host wallet sets; it is not a
  // class field, so a value set before the element upgrades is not overwritten by the upgrade.

  #history = [];
  #root;
  #log;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
  }

  get apiBase() {
    return (this.getAttribute('api-base') ?? '').replace(/\/$/, '');
  }

  get receiptBase() {
    return this.getAttribute('receipt-base') ?? `${this.apiBase}/receipt/`;
  }

  connectedCallback() {
    if (this.#log) return;
    const question = h('textarea', { id: 'question', name: 'question', rows: 4, maxlength: 4000, required: true });
    const ask = h('button', { type: 'submit' }, 'Ask');
    const form = h(
      'form',
      {
        onsubmit: (event) => {
          event.preventDefault();
          const text = question.value.trim();
          if (text) void this.ask(text, ask);
        },
      },
      h('label', { for: 'question' }, 'Your question'),
      question,
      ask,
    );
    this.#log = h('div', { 'aria-live': 'polite' });
    this.#root.append(h('style', {}, STYLE), h('div', { class: 'panel', part: 'panel' }, form, this.#log));
  }

  #emit(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  async #post(step, body) {
    const response = await fetch(`${this.apiBase}${STEPS[step]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, ok: response.ok, body: json, text };
  }

  #step(title, ...content) {
    const section = h('section', { class: 'step', 'data-step': title.toLowerCase().replace(/[^a-z]+/g, '-') }, h('h3', {}, title), ...content);
    this.#log.append(section);
    return section;
  }

  #problem(step, result) {
    const problem = result.body && typeof result.body === 'object' ? result.body : {};
    const errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.#emit('assistant-error', { step, status: result.status, problem });
    return h(
      'div',
      { class: 'problem', role: 'status', 'data-status': result.status },
      h('p', {}, h('span', { class: 'bad' }, `${step} answered ${result.status}`), STATUS_MEANING[result.status] ? `: ${STATUS_MEANING[result.status]}.` : '.'),
      problem.title ? h('p', {}, h('strong', {}, problem.title), problem.code ? [' (', h('code', {}, problem.code), ')'] : '') : null,
      problem.detail ? h('p', {}, problem.detail) : null,
      errors.length ? h('ul', {}, errors.map((error) => h('li', {}, h('code', {}, error.path ?? ''), ' ', error.message ?? ''))) : null,
      !result.body && result.text ? h('pre', {}, result.text) : null,
    );
  }

  /** Step 1: quote. A free-tier decision goes straight to chat; a premium quote asks for the Note. */
  async ask(question, button) {
    if (button) button.disabled = true;
    try {
      const history = this.#history.slice();
      const quoted = await this.#post('quote', history.length ? { question, history } : { question });
      if (!quoted.ok) {
        this.#step('Quote', this.#problem('Quote', quoted));
        return;
      }
      const quote = quoted.body;
      this.#emit('assistant-quote', { quote });
      if (quote.tier === 'free') {
        this.#step('Free tier', h('p', {}, quote.reason, ` Free questions left today: ${quote.free_questions_remaining_today}.`));
        await this.#chat(question, undefined, undefined);
        return;
      }
      this.#showPremium(quote, question);
    } catch (error) {
      this.#step('Quote', h('p', { class: 'problem' }, `Could not reach the service: ${error?.message ?? error}`));
    } finally {
      if (button) button.disabled = false;
    }
  }

  #showPremium(quote, question) {
    this.#emit('assistant-payment-request', { quote, question });
    const requirements = ['R4', 'R5', 'R6'].map((register) => {
      const entry = quote.noteRequirements?.[register] ?? {};
      return h('tr', {}, h('th', { scope: 'row' }, register), h('td', {}, h('code', { class: 'whole' }, entry.type ?? '')), h('td', {}, h('code', {}, String(entry.value ?? ''))), h('td', {}, entry.meaning ?? ''));
    });
    const noteId = h('input', { id: `note-${quote.quoteId}`, name: 'noteBoxId', type: 'text', autocomplete: 'off', spellcheck: 'false', pattern: '[0-9a-fA-F]{64}', required: true });
    const verify = h('button', { type: 'submit' }, 'Verify payment');
    const form = h(
      'form',
      {
        onsubmit: (event) => {
          event.preventDefault();
          void this.verify(quote, question, noteId.value.trim(), verify);
        },
      },
      h('label', { for: `note-${quote.quoteId}` }, 'Note box id (64 hexadecimal characters)'),
      noteId,
      verify,
    );
    const payButton =
      typeof this.pay === 'function'
        ? h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              onclick: async (event) => {
                const button = event.currentTarget;
                button.disabled = true;
                try {
                  const boxId = await this.pay(quote, question);
                  if (typeof boxId === 'string') {
                    noteId.value = boxId;
                    await this.verify(quote, question, boxId, verify);
                  }
                } catch (error) {
                  form.after(h('p', { class: 'problem', role: 'status' }, `The wallet did not pay: ${error?.message ?? error}`));
                } finally {
                  button.disabled = false;
                }
              },
            },
            'Pay with my wallet',
          )
        : null;
    this.#step(
      'Premium quote',
      h('p', {}, 'This question is a paid turn. Pay ', h('strong', {}, `${quote.price} testnet ERG`), ' (', h('code', {}, quote.priceNanoErg), ' nanoERG) to ', h('code', {}, quote.receiverAddress), ` before ${quote.expiresAt}.`),
      h('p', {}, `Your wallet creates a Note box with these registers; it needs ${quote.minConfirmations} confirmation(s). This page never signs: the host wallet pays.`),
      h('div', { class: 'scroll', tabindex: '0', role: 'group', 'aria-label': 'Note registers' }, h('table', {}, h('thead', {}, h('tr', {}, ['Register', 'Type', 'Value', 'Meaning'].map((name) => h('th', { scope: 'col' }, name)))), h('tbody', {}, requirements))),
      quote.reason ? h('p', {}, quote.reason) : null,
      h('p', { class: 'muted' }, 'Quote ', h('code', {}, quote.quoteId), '; task hash ', h('code', {}, quote.taskHash), '.'),
      payButton,
      form,
    );
  }

  /** Step 2: verify the Note; the answer carries the single-use payment token and the stored receipt. */
  async verify(quote, question, noteBoxId, button) {
    if (!NOTE_BOX_ID.test(noteBoxId)) {
      this.#step('Payment', h('p', { class: 'problem', role: 'status' }, 'A Note box id is 64 hexadecimal characters.'));
      return;
    }
    if (button) button.disabled = true;
    try {
      const verified = await this.#post('verify', { quote, question, noteBoxId });
      if (!verified.ok) {
        this.#step('Payment', this.#problem('Payment verification', verified));
        return;
      }
      const { paymentToken, paymentTokenExpiresAt, receiptId, receiptUrl, settlementTxId } = verified.body;
      this.#emit('assistant-payment-verified', { receiptId, receiptUrl, settlementTxId, paymentTokenExpiresAt });
      const receiptPage = `${this.receiptBase}${encodeURIComponent(receiptId)}`;
      const next = h('button', { type: 'button' }, 'Continue the turn');
      next.addEventListener('click', async () => {
        next.disabled = true;
        await this.#chat(question, paymentToken, receiptPage);
      });
      this.#step(
        'Payment verified',
        h('p', {}, h('span', { class: 'ok' }, 'The Note pays the quote.'), ` A single-use payment token was issued (valid until ${paymentTokenExpiresAt}) and the receipt bundle is stored.`),
        h('p', {}, 'Receipt ', h('a', { href: receiptPage }, h('code', {}, receiptId)), '; settlement transaction ', h('code', {}, settlementTxId), '.'),
        next,
      );
    } catch (error) {
      this.#step('Payment', h('p', { class: 'problem' }, `Could not reach the service: ${error?.message ?? error}`));
    } finally {
      if (button) button.disabled = false;
    }
  }

  /** Step 3: the chat turn, free or paid. */
  async #chat(question, paymentToken, receiptPage) {
    const messages = [...this.#history, { role: 'user', content: question }];
    try {
      const answered = await this.#post('chat', paymentToken ? { messages, paymentToken } : { messages });
      if (!answered.ok) {
        this.#step('Answer', this.#problem('Chat', answered));
        return;
      }
      const chat = answered.body;
      this.#history = [...messages, { role: 'assistant', content: chat.answer }];
      this.#emit('assistant-answer', { tier: chat.tier, answer: chat.answer, citations: chat.citations, receiptId: chat.receiptId });
      this.#step(
        chat.tier === 'premium' ? 'Paid answer' : 'Answer',
        renderAnswer(chat.answer),
        chat.citations?.length ? h('p', {}, 'Sources: ', chat.citations.map((citation, index) => [index ? ', ' : '', h('a', { href: citation.url }, citation.title)])) : null,
        receiptPage ? h('p', {}, h('a', { href: receiptPage }, 'Open the receipt')) : null,
      );
    } catch (error) {
      this.#step('Answer', h('p', { class: 'problem' }, `Could not reach the service: ${error?.message ?? error}`));
    }
  }
}

if (!customElements.get('agent-economy-assistant')) customElements.define('agent-economy-assistant', AgentEconomyAssistant);
