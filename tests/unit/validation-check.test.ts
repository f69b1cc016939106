/**
 * A validation's code catalogue is derived from its checks: each check declares the codes it
 * raises, and the catalogue lists them in the order the checks run, a code two checks share once.
 */
import { describe, expect, it } from 'vitest';
import { ACCEPTANCE_CODES, QUOTE_CODES } from '../../src/domain/job-validation.ts';
import { PUBLISH_CODES } from '../../src/domain/publish-validation.ts';
import { catalogueOf, check, codeOf } from '../../src/domain/validation-check.ts';

const first = codeOf('one', 'error', 'first_code', 'The first.');
const shared = codeOf('one', 'warning', 'shared_code', 'Shared by two checks.');
const later = codeOf('two', 'error', 'later_code', 'The later.');

describe('catalogueOf', () => {
  it('lists the codes in the order the checks run, a code two checks share once', () => {
    const catalogue = catalogueOf([check([first, shared], () => {}), check([shared, later], () => {})]);
    expect(catalogue.map((entry) => entry.code)).toEqual(['first_code', 'shared_code', 'later_code']);
  });

  it('refuses one code declared with two severities or meanings', () => {
    const twin = codeOf('two', 'error', 'shared_code', 'Shared by two checks.');
    expect(() => catalogueOf([check([shared], () => {}), check([twin], () => {})])).toThrow(/"shared_code" is declared twice/);
  });

  it('gives each validation its checks in the order its guide lists them, the schema codes first', () => {
    const checksOf = (catalogue: readonly { check: string }[]) => [...new Set(catalogue.map((entry) => entry.check))];
    expect(checksOf(PUBLISH_CODES)).toEqual(['schema', 'posture', 'payment', 'predicate', 'evidence', 'forbidden-claims']);
    expect(checksOf(ACCEPTANCE_CODES)).toEqual(['schema', 'job-id', 'capability', 'output', 'receipt', 'posture', 'evidence', 'forbidden-claims']);
    expect(checksOf(QUOTE_CODES)).toEqual(['schema', 'job-id', 'quote-terms', 'receipt', 'settlement', 'posture', 'evidence', 'forbidden-claims']);
  });
});
