/**
 * The task hash binds a Note to one quote and one question: blake2b256 of the RFC 8785 canonical
 * JSON of {quoteId, question, history}, history `[]` when the quote request had none. A wallet puts
 * it in the Note's R6, so a Note made for one quote can never pay another.
 */
import type { ConversationMessage } from '../../../schemas/assistant.ts';
import { blake2b256Hex, canonicalHash } from '../canonical-hash.ts';

export interface TaskHashInput {
  quoteId: string;
  question: string;
  history?: ConversationMessage[] | undefined;
}

export function computeTaskHash({ quoteId, question, history }: TaskHashInput): string {
  // Only role and content enter the hash, so a caller's object with extra fields cannot change it.
  const turns = (history ?? []).map(({ role, content }) => ({ role, content }));
  return canonicalHash({ quoteId, question, history: turns });
}

/**
 * The stored stand-in for a question: its blake2b256 over UTF-8. Verification and the payment
 * token compare questions by it, so the question text itself is never stored.
 */
export function hashQuestion(question: string): string {
  return blake2b256Hex(question);
}
