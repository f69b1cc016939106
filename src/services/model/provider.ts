/**
 * What chat asks of a model provider, and the three ways a provider can fail. The chat handler maps
 * each failure to its documented status (503 not configured or unavailable, 502 a bad answer) and
 * spends no payment token on any of them.
 */
import type { ChatResponse, ConversationMessage } from '../../../schemas/assistant.ts';
import type { QuestionJudgement } from '../../domain/assistant/question-parts.ts';

export interface ModelRequest {
  /** The question answered: the last `user` turn. */
  question: string;
  /** The whole conversation, oldest first, ending with the question. */
  messages: ConversationMessage[];
}

export type ModelAnswer = Pick<ChatResponse, 'answer' | 'citations' | 'model'>;

export type { QuestionJudgement };

export interface ModelProvider {
  readonly name: 'docs' | 'openai' | 'none';
  answer(request: ModelRequest): Promise<ModelAnswer>;
  /**
   * What `answer` would answer of this question: asked before a premium quote is issued, so that no
   * one pays for no answer, and a quote for a question answered in part says which parts. Throws as
   * `answer` throws when the provider cannot answer at all.
   */
  judge(question: string): Promise<QuestionJudgement>;
}

/** `ASSISTANT_MODEL_PROVIDER=none`: chat answers 503. */
export class ModelNotConfiguredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelNotConfiguredError';
  }
}

/** No answer within the timeout, or no connection: 503. */
export class ModelUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelUnavailableError';
  }
}

/** The provider answered, but with an error status or a body that is not a chat completion: 502. */
export class ModelBadResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelBadResponseError';
  }
}

export const NOT_CONFIGURED = 'No model provider is configured on this service (ASSISTANT_MODEL_PROVIDER=none), so chat cannot answer.';

/** The provider of `ASSISTANT_MODEL_PROVIDER=none`. */
export const noModelProvider: ModelProvider = {
  name: 'none',
  answer: async () => {
    throw new ModelNotConfiguredError(NOT_CONFIGURED);
  },
  judge: async () => {
    throw new ModelNotConfiguredError(NOT_CONFIGURED);
  },
};
