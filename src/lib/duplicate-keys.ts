/**
 * Duplicate member names in JSON text. RFC 8785 canonical JSON requires I-JSON (RFC 7493), which
 * forbids them, and for good reason: `JSON.parse` keeps the last value, so a receipt carrying
 * `"chain":"testnet"` first and `"chain":"sandbox"` last is checked and hashed as one thing and may
 * be read by another parser as the other. Every JSON this service hashes or verifies is refused with
 * a duplicate; jsonc-parser's scanner walks the text once (JSON.parse has no hook for it).
 */
import { visit, type JSONPath } from 'jsonc-parser';
import { jsonPointer } from './problem-error.ts';

/** The JSON Pointer of the first member whose name repeats an earlier one of its object, or null. */
export function duplicateKeyAt(text: string): string | null {
  const open: Array<Set<string>> = [];
  let found: JSONPath | null = null;
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (name, _offset, _length, _line, _column, path) => {
      if (found) return;
      const names = open.at(-1)!;
      if (names.has(name)) found = [...path(), name];
      names.add(name);
    },
  });
  return found === null ? null : jsonPointer(found);
}

/** Every `"` that closes a string followed by a colon: a member's name, or the same characters inside a string. */
const NAME_THEN_COLON = /"\s*:/g;

/** How many members the objects of a parsed JSON value hold, in all. */
function memberCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += memberCount(item);
    return count;
  }
  for (const key in value) count += 1 + memberCount((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * duplicateKeyAt for text already parsed into `value`, cheaply: every member written in the text is
 * a name followed by a colon, so when the text holds no more of those than `value` has members,
 * no name was written twice, and the full scan runs only for text that holds more (a duplicate, or
 * a string with `":` in it). A microsecond or two for a request body instead of about ten.
 */
export function duplicateKeyIn(text: string, value: unknown): string | null {
  const written = text.match(NAME_THEN_COLON)?.length ?? 0;
  return written > memberCount(value) ? duplicateKeyAt(text) : null;
}
