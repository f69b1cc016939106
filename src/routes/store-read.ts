/** A public read of the receipt store, its store being unreachable answered as the documented 503. */
import { fromStore } from '../services/paid-turn/deps.ts';

/** `unreadable` finishes the sentence "The receipt store cannot be read right now, so …". */
export function readReceiptStore<T>(unreadable: string, read: () => Promise<T>): Promise<T> {
  return fromStore(read, `The receipt store cannot be read right now, so ${unreadable}; retry shortly.`);
}
