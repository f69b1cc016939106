/**
 * The boundary to `ergo-lib-wasm-nodejs`, the WASM bindings of sigma-rust (the reference Ergo
 * implementation in Rust). It parses and serializes boxes and transactions byte for byte, which
 * Fleet's serializer cannot do for the many real ErgoTrees without the size flag. Two things need
 * care at this boundary, and both are handled only here:
 *
 * - WASM objects live in WASM memory until freed; the finalizer may run late, so every object a
 *   call creates is owned by a scope and freed when the call ends.
 * - A parse failure arrives as an Error whose text names Rust types; a malformed input can even hit
 *   a Rust panic (`RuntimeError: unreachable`, observed when fuzzing register bytes). Both become an
 *   InspectionInputError with our own words, so no parser text ever reaches an answer.
 */
import { createRequire } from 'node:module';
import { InspectionInputError } from './inspection-error.ts';

type SigmaRust = typeof import('ergo-lib-wasm-nodejs');

let loaded: SigmaRust | undefined;

/**
 * The bindings, loaded on first use rather than with this module: instantiating the WASM costs about
 * 8 MiB resident (docs/performance.md, "Memory"), which a server that never inspects a box, a
 * transaction or a script address should not hold. They instantiate synchronously, so callers stay
 * synchronous.
 */
export function sigmaRust(): SigmaRust {
  loaded ??= createRequire(import.meta.url)('ergo-lib-wasm-nodejs') as SigmaRust;
  return loaded;
}

interface Freeable {
  free(): void;
}

/** Collects WASM objects and frees them together, newest first. */
export class WasmScope {
  readonly #owned: Freeable[] = [];

  own<T extends Freeable>(value: T): T {
    this.#owned.push(value);
    return value;
  }

  freeAll(): void {
    while (this.#owned.length > 0) {
      try {
        this.#owned.pop()!.free();
      } catch {
        // Already consumed by a call that takes ownership; nothing left to free.
      }
    }
  }
}

/** Runs `work` with a scope whose objects are freed afterwards, whatever happens. */
export function withWasmScope<T>(work: (scope: WasmScope) => T): T {
  const scope = new WasmScope();
  try {
    return work(scope);
  } finally {
    scope.freeAll();
  }
}

/** What a thing is, for messages: "box bytes", "transaction JSON". */
export type ParsedThing = 'box bytes' | 'box JSON' | 'transaction bytes' | 'transaction JSON';

/**
 * Maps a failure thrown by sigma-rust while reading `what` to an InspectionInputError. The error's
 * text is only matched against known categories, never repeated.
 */
export function parseFailure(what: ParsedThing, error: unknown): InspectionInputError {
  if (error instanceof InspectionInputError) return error;
  const text = String((error as Error)?.message ?? error);
  const isBytes = what.endsWith('bytes');
  if (error instanceof WebAssembly.RuntimeError) {
    return new InspectionInputError('malformed', `The ${what} could not be read: a field holds a value the Ergo serialization does not allow.`);
  }
  if (isBytes && /failed to fill whole buffer/i.test(text)) {
    return new InspectionInputError('truncated_bytes', `The ${what} end before the ${what.split(' ')[0]} does: the input is truncated.`);
  }
  if (/BoxValue error|TokenAmount error|out of bounds|out of range/i.test(text)) {
    return new InspectionInputError('value_out_of_range', `The ${what} ${isBytes ? 'hold' : 'holds'} a number outside its allowed range (a box value, token amount, index or size).`);
  }
  if (/densely packed/i.test(text)) {
    return new InspectionInputError('registers_not_dense', `The ${what} ${isBytes ? 'set' : 'sets'} a register without all the registers before it (R4 to R9 must be densely packed).`);
  }
  if (/register/i.test(text)) {
    return new InspectionInputError('malformed_register', `A register in the ${what} is not a valid serialized constant.`);
  }
  return new InspectionInputError(
    'malformed',
    isBytes
      ? `The ${what} do not follow the Ergo serialization (an unknown type or opcode, or a length that does not match).`
      : `The ${what} describe something the Ergo serialization cannot represent.`,
  );
}
