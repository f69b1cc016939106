/**
 * Any OpenAI-compatible chat-completions server (OpenAI itself, a local llama.cpp or vLLM server,
 * a gateway) reached through undici. One call per turn, bounded by MODEL_TIMEOUT_MS from the first
 * byte sent to the last byte read, so a slow server turns into a 503 in time instead of a hung turn.
 *
 * Grounded in the site's pages by the docs provider (`grounding`): the model is handed the
 * sentences the docs provider quotes for the question, part by part (a part the site does not
 * answer named as such), told to answer from them only, and its answer cites their pages. A question the site does not answer is judged so at quote time (no one
 * pays for it) and answered so without calling the model, exactly as the docs provider would.
 */
import { undici } from '../../lib/lazy-modules.ts';
import { site } from '../../config/site.ts';
import { ModelBadResponseError, ModelUnavailableError, type ModelAnswer, type ModelProvider, type ModelRequest } from './provider.ts';

export interface OpenAiProviderOptions {
  /** Base URL without trailing slash; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
}

/** Upper bound on a completion body: a chat answer is a few KiB; anything far larger is not one. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

const systemPrompt = (passages: string): string =>
  `You are the hosted assistant of ${site.name} (${site.base_url}), the public proof surface of an agent economy on the Ergo test network. ` +
  'Answer briefly and accurately, in Markdown, from the passages of the site quoted below only, and link the pages you use. ' +
  'Where the passages are grouped under the parts of the question (numbered, in bold), answer each part in the same order, the fact first; ' +
  'where a part is marked "This site does not say", say that the site does not say it rather than guess. ' +
  'Never ask for or accept private keys or seed phrases; this service never signs or broadcasts.\n\n' +
  `Passages of the site for this question:\n${passages}`;

function completionText(body: unknown): string | undefined {
  const choices = (body as { choices?: unknown })?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  const content = (choices[0] as { message?: { content?: unknown } })?.message?.content;
  return typeof content === 'string' && content.trim().length > 0 ? content : undefined;
}

export function createOpenAiProvider(options: OpenAiProviderOptions, grounding: ModelProvider): ModelProvider {
  const url = `${options.baseUrl}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function answer(request: ModelRequest): Promise<ModelAnswer> {
    if (!(await grounding.judge(request.question)).answerable) return grounding.answer(request);
    const passages = await grounding.answer(request);
    const signal = AbortSignal.timeout(options.timeoutMs);
    let statusCode: number;
    let text: string;
    try {
      const response = await undici().request(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: options.model, messages: [{ role: 'system', content: systemPrompt(passages.answer) }, ...request.messages] }),
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      statusCode = response.statusCode;
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) {
        response.body.destroy();
        throw new ModelBadResponseError(`The model provider answered with ${declared} bytes, more than a chat completion.`);
      }
      text = await response.body.text();
    } catch (error) {
      if (error instanceof ModelBadResponseError) throw error;
      const timedOut = signal.aborted || /timeout/i.test((error as { code?: string })?.code ?? '');
      const code = (error as { code?: unknown })?.code;
      throw new ModelUnavailableError(
        timedOut
          ? `The model provider did not answer within ${options.timeoutMs} ms.`
          : `The model provider could not be reached${typeof code === 'string' ? ` (${code})` : ''}.`,
        { cause: error },
      );
    }
    if (statusCode < 200 || statusCode >= 300) {
      throw new ModelBadResponseError(`The model provider answered HTTP ${statusCode}.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ModelBadResponseError('The model provider answered with a body that is not JSON.');
    }
    const content = completionText(parsed);
    if (content === undefined) throw new ModelBadResponseError('The model provider answered without a chat completion (no choices[0].message.content).');
    const reported = (parsed as { model?: unknown }).model;
    return {
      answer: content,
      citations: passages.citations,
      model: { provider: 'openai', name: typeof reported === 'string' && reported.length > 0 ? reported : options.model },
    };
  }

  // The model answers from the site's passages, so the site's judgment is the quote's.
  return { name: 'openai', answer, judge: (question) => grounding.judge(question) };
}
