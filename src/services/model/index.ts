/**
 * The model provider picked by `ASSISTANT_MODEL_PROVIDER`: `docs` (the default, retrieval over the
 * site's own pages), `openai` (an OpenAI-compatible server, grounded in the same retrieval) or `none`
 * (chat answers 503).
 */
import { modelConfig, type ModelConfig } from '../../config/assistant.ts';
import { buildDocsIndexesInTurns } from '../docs-index.ts';
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
 * Builds the configured provider now, and with it the docs indexes (a slice of the loop at a time),
 * so the first question is not the one that waits for them. Never rejects: a failure is logged and
 * the first chat tries again.
 */
export async function warmUpModelProvider(): Promise<void> {
  try {
    if (modelProvider().name !== 'none') await buildDocsIndexesInTurns();
  } catch (error) {
    logger.warn({ err: error }, 'model provider not ready at start; the first chat builds it');
  }
}
