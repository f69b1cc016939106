/**
 * Turning request bytes into a JSON value, with every way it can go wrong mapped to a documented
 * 4xx: wrong content type (415), too large (413), not UTF-8 or not JSON (400). Shared by both
 * front doors so their answers cannot differ.
 */
import { isUtf8 } from 'node:buffer';
import { MAX_BODY_BYTES } from '../config/limits.ts';
import { duplicateKeyIn } from './duplicate-keys.ts';
import { jsonPointer, ProblemError } from './problem-error.ts';



export function assertJsonContentType(contentType: string | undefined): void {
  if (contentType === 'application/json') return;
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(mediaType)) {
    throw new ProblemError(
      415,
      'unsupported_media_type',
      'Unsupported media type',
      `Send the body as JSON with "content-type: application/json" (got ${contentType ? `"${contentType}"` : 'none'}).`,
      { headers: { 'accept-post': 'application/json' } },
    );
  }
}

export function tooLarge(): ProblemError {
  return new ProblemError(413, 'payload_too_large', 'Payload too large', `The body exceeds the limit of ${MAX_BODY_BYTES} bytes.`);
}

/** Documented nesting limit: no legitimate body nests deeper, and deeper ones would only cost stack. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a JSON text nests arrays and objects deeper than MAX_JSON_DEPTH, found by one scan that
 * skips strings, so a hostile body (10,000 nested arrays) is refused before any recursive code walks it.
 */
export function nestsTooDeeply(text: string): boolean {
  // Nesting never exceeds the number of opening brackets: most bodies have fewer than the limit,
  // counted natively, and skip the character-by-character scan.
  return !openingBracketsAtMost(text, MAX_JSON_DEPTH) && jsonNestingDepth(text) > MAX_JSON_DEPTH;
}

/** Deepest array/object nesting of a JSON text; brackets inside strings do not count. */
function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) deepest = Math.max(deepest, ++depth);
    else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return deepest;
}

function openingBracketsAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) if (++count > limit) return false;
  }
  return true;
}

/** Parses a complete body; `bytes` must already be within MAX_BODY_BYTES. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) {
    throw new ProblemError(400, 'empty_body', 'Empty body', 'The request needs a JSON body; none was sent.');
  }
  // Validated natively first (simdutf), then decoded without a second check: faster than a fatal TextDecoder.
  if (!isUtf8(bytes)) throw new ProblemError(400, 'invalid_utf8', 'Body is not UTF-8', 'The body is not valid UTF-8 text.');
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (nestsTooDeeply(text)) {
    throw new ProblemError(400, 'too_deeply_nested', 'Body nested too deeply', `The body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unparseable';
    throw new ProblemError(400, 'invalid_json', 'Body is not JSON', `The body is not valid JSON: ${reason}.`);
  }
  // I-JSON (RFC 7493): a member named twice is read differently by different parsers (JSON.parse
  // keeps the last), and bodies are hashed (task hashes) and compared (payment requirements).
  const duplicate = duplicateKeyIn(text, value);
  if (duplicate !== null) {
    throw new ProblemError(400, 'invalid_request', 'Body names a member twice', `The body names the member at ${duplicate} twice; each member may appear once in an object (I-JSON, RFC 7493).`, {
      errors: [{ path: duplicate, code: 'duplicate_member', message: 'names a member its object already has' }],
    });
  }
  // Only an escape can put a surrogate into JSON text (the decoder above refuses encoded ones), so
  // the walk runs for the rare body that has one.
  if (text.includes('\\u') && SURROGATE_ESCAPE.test(text)) {
    const path = illFormedTextAt(value, []);
    if (path) {
      const pointer = jsonPointer(path);
      throw new ProblemError(400, 'invalid_request', 'Body is not well-formed text', `The ${path.length > 0 ? `text at ${pointer}` : 'body'} holds a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape), which is not text.`, {
        errors: [{ path: pointer, code: 'ill_formed_unicode', message: 'must be well-formed Unicode text: a \\uD800-\\uDBFF escape must be followed by a \\uDC00-\\uDFFF one' }],
      });
    }
  }
  return value;
}

/** A `\uD800`-`\uDFFF` escape in JSON text. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Path of the first string or object key in `value` that is not well-formed UTF-16 (a lone surrogate). */
function illFormedTextAt(value: unknown, path: PropertyKey[]): PropertyKey[] | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : path;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = illFormedTextAt(value[index], [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!key.isWellFormed()) return [...path, key];
      const found = illFormedTextAt(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
