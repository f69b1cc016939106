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
