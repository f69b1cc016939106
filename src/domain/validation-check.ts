/**
 * The checks the publish, job acceptance and job quote validations run, and the codes they report.
 * Each check declares its codes beside the code that raises them: the stable code, the check's
 * name, whether it blocks (error) or only informs (warning), and what it means. A validation is its
 * ordered list of checks, and its code catalogue is derived from that list, so a code cannot be
 * raised without being published, nor be an error in one place and a warning in another. The
 * guides publish each catalogue under its checks; the tests prove each code is reachable. A code,
 * once published, keeps its meaning; a new failure mode gets a new code.
 */

export type Severity = 'error' | 'warning';

export interface CodeEntry {
  readonly code: string;
  readonly check: string;
  readonly severity: Severity;
  readonly meaning: string;
}

export const codeOf = (check: string, severity: Severity, code: string, meaning: string): CodeEntry => ({ code, check, severity, meaning });

/** Most findings that reach a body past the first hundred would only repeat what the first ones say. */
export const MAX_FINDINGS = 100;

/** Where a check reports: the severity of each code comes from the validation's catalogue. */
export interface FindingSink {
  add(code: string, path: string, message: string): void;
}

/** One check of a validation: the codes it may raise, and how it raises them on the validation's state. */
export interface Check<State> {
  readonly codes: readonly CodeEntry[];
  readonly run: (findings: FindingSink, state: State) => void;
}

export const check = <State>(codes: readonly CodeEntry[], run: (findings: FindingSink, state: State) => void): Check<State> => ({ codes, run });

/** Every code the checks may raise, in the order they run; a code two checks share is listed once and must mean the same in both. */
export function catalogueOf(checks: ReadonlyArray<Check<never>>): readonly CodeEntry[] {
  const byCode = new Map<string, CodeEntry>();
  for (const entry of checks.flatMap((each) => each.codes)) {
    const known = byCode.get(entry.code);
    if (known && (known.severity !== entry.severity || known.meaning !== entry.meaning)) throw new Error(`validation codes: "${entry.code}" is declared twice with different meanings`);
    if (!known) byCode.set(entry.code, entry);
  }
  return [...byCode.values()];
}

/** The entry of `code` in `catalogue`; a code missing from it is a programming error, not bad input. */
export function codeEntry(catalogue: readonly CodeEntry[], code: string): CodeEntry {
  const found = catalogue.find((candidate) => candidate.code === code);
  if (!found) throw new Error(`validation codes: "${code}" is not in this validation's catalogue`);
  return found;
}
