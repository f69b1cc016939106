/**
 * The model provider picked by `ASSISTANT_MODEL_PROVIDER`: `docs` (the default, retrieval over the
 * site's own pages), `openai` (an OpenAI-compatible server, grounded in the same retrieval) or `none`
 * (chat answers 503).
 */
import { modelConfig, type ModelConfig } from '../../config/assistant.ts';
import { answerIndex } from '../answer-index.ts';
import { buildDocsIndexInTurns } from '../docs-index.ts';
import { logger } from '../logger.ts';
import { createDocsProvider } from './docs-provider.ts';
import { createOpenAiProvider } from './openai-provider.ts';
import { noModelProvider, type ModelProvider } from './provider.ts';

export function createModelProvider(config: ModelConfig): ModelProvider {
  switch (config.provider) {
    case 'docs':
      return createDocsProvider();
    case 'openai':
      return createOpenAiProvider({ baseUrl: config.baseUrl, model: config.model, apiKey: config.apiKey, timeoutMs: config.timeoutMs }, createDocsProvider());
    case 'none':
      return noModelProvider;
  }
}

let configured: ModelProvider | undefined;

/** The process's provider, made once from the environment. */
export function modelProvider(): ModelProvider {
  configured ??= createModelProvider(modelConfig);
  return configured;
}

/**
 * Makes the configured provider now and reads the assistant's index from the build (a few
 * milliseconds: the build cut and weighed the site), so that the first question costs what any
 * question costs. Never throws: a failure is logged and the first question tries again.
 */
export function readAnswerIndex(): void {
  try {
    if (modelProvider().name !== 'none') answerIndex();
  } catch (error) {
    logger.warn({ err: error }, 'assistant index not read at start; the first question reads it');
  }
}

/**
 * Builds `search_docs`' passage index a slice of the loop at a time, once the first requests of a
 * start are answered. Never rejects: a failure is logged and the first search builds it.
 */
export async function warmUpModelProvider(): Promise<void> {
  try {
    await buildDocsIndexInTurns();
  } catch (error) {
    logger.warn({ err: error }, 'search index not ready at start; the first search builds it');
  }
}
