/** A public read of the receipt store, its store being unreachable answered as the documented 503. */
import { ProblemError } from '../lib/problem-error.ts';
import { StoreUnavailableError } from '../domain/ports.ts';

/** `unreadable` finishes the sentence "The receipt store cannot be read right now, so …". */
export async function readReceiptStore<T>(unreadable: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof StoreUnavailableError) {
      throw new ProblemError(503, 'receipt_storage_unavailable', 'Receipt storage unavailable', `The receipt store cannot be read right now, so ${unreadable}; retry shortly.`, {
        headers: { 'retry-after': '5' },
      });
    }
    throw error;
  }
}
