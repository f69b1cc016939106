/**
 * Expand, then contract: a migration that says it only expands must read like one, on both
 * dialects, because the previous release runs on its result and an older build opens it
 * (tests/integration/rolling-deploy.test.ts runs the real previous release on it). The patterns are
 * the statements that take something away from a build that does not know the migration.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES, SQLITE } from '../../src/services/store/dialect.ts';
import { MIGRATIONS } from '../../src/services/store/migrations.ts';

const TAKES_AWAY: Array<[string, RegExp]> = [
  ['drops something', /\bDROP\b/i],
  ['renames something', /\bRENAME\b/i],
  ['changes a column', /\bALTER\s+COLUMN\b/i],
  ['removes or rewrites rows', /\b(DELETE|UPDATE|TRUNCATE)\b/i],
];

/**
 * A trigger (its event, `AFTER DELETE ON receipts`, and its body or function) takes nothing away
 * when it writes only to tables the same migration creates: it is checked apart, and its text left
 * out of the patterns above.
 */
const TRIGGER_PARTS = /CREATE\s+TRIGGER[\s\S]*?(?:\bEND;|EXECUTE\s+FUNCTION\s+\w+\(\);)|\$(\w*)\$[\s\S]*?\$\1\$/gi;
const WRITES = /\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+(\w+)/gi;

/** An added NOT NULL column without a default: an older build's inserts, which do not name it, fail. */
const REQUIRED_NEW_COLUMN = /\bADD\s+COLUMN\b(?:(?!;)[\s\S])*?\bNOT\s+NULL\b(?:(?!;)[\s\S])*?;/gi;

describe.each([POSTGRES, SQLITE])('migrations on $name', (dialect) => {
  it.each(MIGRATIONS.filter((migration) => migration.change === 'expand').map((migration) => [migration.version, migration.name, migration] as const))(
    'migration %i (%s) says it only expands, and takes nothing away',
    (_version, _name, migration) => {
      const whole = migration.sql(dialect).replace(/--.*$/gm, '');
      const created = new Set([...whole.matchAll(/CREATE\s+TABLE\s+(\w+)/gi)].map(([, table]) => table!.toLowerCase()));
      for (const [trigger] of whole.matchAll(TRIGGER_PARTS)) {
        for (const [, table] of trigger.replace(/\bAFTER\s+[\w\s]+?\s+ON\s+\w+/gi, '').matchAll(WRITES)) expect(created, `a trigger writes to ${table}, which it did not create: ${trigger}`).toContain(table!.toLowerCase());
      }
      const sql = whole.replace(TRIGGER_PARTS, '');
      for (const [what, pattern] of TAKES_AWAY) expect(pattern.test(sql), `it ${what}: ${sql}`).toBe(false);
      for (const added of sql.match(REQUIRED_NEW_COLUMN) ?? []) expect(added, 'a NOT NULL column added to an existing table needs a DEFAULT').toMatch(/\bDEFAULT\b/i);
    },
  );
});

describe('the migration list', () => {
  it('numbers migrations 1, 2, 3... and says of each whether it expands or contracts', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    for (const migration of MIGRATIONS) expect(['expand', 'contract']).toContain(migration.change);
  });

  it('keeps what shipped: 4 dropped the stored quote body (a contraction), 5 added the retry key (an expansion)', () => {
    expect(MIGRATIONS.slice(0, 5).map(({ version, change }) => [version, change])).toEqual([
      [1, 'expand'],
      [2, 'expand'],
      [3, 'expand'],
      [4, 'contract'],
      [5, 'expand'],
    ]);
    // The check above would have caught 4 had it said it only expands.
    const contraction = MIGRATIONS[3]!.sql(POSTGRES);
    expect(TAKES_AWAY.filter(([, pattern]) => pattern.test(contraction)).map(([what]) => what)).toEqual(['drops something', 'removes or rewrites rows']);
  });
});
