/**
 * The jobs board's dated content (content/jobs.json): the guides publish an example intent and an
 * example quote request that the live endpoints are said to accept, checked on the day they are
 * sent. Their dates (a quote's validity, the job's deadline) pass with time, and on 2026-12-06 the
 * example quote started failing on the site (quote_terms_expired). This test fails a month ahead,
 * so the operator moves the dates before a reader meets a published example the site refuses.
 */
import { describe, expect, it } from 'vitest';
import { acceptanceValidation, boardJobs, exampleAcceptanceIntent, exampleQuoteRequest, quoteValidation } from '../../src/descriptors/jobs.ts';

const IN_30_DAYS = new Date(Date.now() + 30 * 86_400_000);

describe('the jobs board content, a month from today', () => {
  it('still accepts the guides\' own example intent and quote request', () => {
    expect(acceptanceValidation(exampleAcceptanceIntent(), IN_30_DAYS).errors).toEqual([]);
    expect(quoteValidation(exampleQuoteRequest(), IN_30_DAYS).errors).toEqual([]);
  });

  it('still has open jobs taking work', () => {
    expect(boardJobs().filter((job) => job.status === 'open' && Date.parse(job.deadline) > IN_30_DAYS.getTime()).length).toBeGreaterThan(0);
  });
});
