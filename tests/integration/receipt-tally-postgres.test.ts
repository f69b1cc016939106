/**
 * Migration 10's receipt tally on PostgreSQL, against an adversarial review: an older build's insert
 * in flight while the migration runs is counted (the triggers come before the count), and the
 * trigger moves the tally of the store whose receipts changed, whatever search_path the session
 * that changed them has (the function keeps its own). Both failed before the fix. Migration 11's log
 * revision keeps its search_path the same way.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../src/services/store/index.ts';
import type { SqlAssistantStore } from '../../src/services/store/sql-store.ts';
import { POSTGRES_URL, postgresAvailable } from '../helpers/services.ts';
import { hex32, makeQuote, makeReceipt, settleTurn } from '../helpers/store-fixtures.ts';

const withPostgres = await postgresAvailable();
const TIMEOUTS = { statementTimeoutMs: 10_000, connectTimeoutMs: 2_000 };

const schemaName = () => `review_tally_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

async function client(searchPath: string): Promise<pg.Client> {
  const connection = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${searchPath}` });
  await connection.connect();
  return connection;
}

// Skipped only when no PostgreSQL answers on this machine (a developer's laptop without one); with
// CI=true postgresAvailable() throws instead, so CI always runs these.
describe.skipIf(!withPostgres)('receipt tally on PostgreSQL', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  function open(schema: string): SqlAssistantStore {
    const store = createStore({ driver: 'postgres', connectionString: POSTGRES_URL, schema, poolSize: 3, ...TIMEOUTS }) as SqlAssistantStore;
    cleanups.push(() => store.close());
    return store;
  }

  function dropLater(schema: string) {
    cleanups.push(async () => {
      const connection = await client('public');
      await connection.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await connection.end();
    });
  }

  it('migration 10 counts every receipt, one an older build inserts while it runs included', async () => {
    const schema = schemaName();
    dropLater(schema);
    const before = open(schema);
    await settleTurn(before);
    await settleTurn(before);
    // A quote the older build's turn will settle, stored before the upgrade.
    const quote = makeQuote();
    await before.insertQuote(quote);
    await before.close();

    // The store as the build before migration 10 left it.
    const admin = await client(schema);
    cleanups.push(() => admin.end());
    await admin.query(
      'DROP TRIGGER receipt_tally_rows ON receipts; DROP TRIGGER receipt_tally_truncate ON receipts; DROP FUNCTION receipt_tally_move(); DROP TABLE receipt_tally; DELETE FROM schema_expansions WHERE version = 10;',
    );

    // An older build (no log) settling a turn: its transaction is open while the new build migrates.
    const older = await client(schema);
    cleanups.push(() => older.end());
    const noteBoxId = hex32();
    const receipt = makeReceipt(quote, noteBoxId);
    await older.query('BEGIN');
    await older.query('INSERT INTO used_notes (note_box_id, quote_id) VALUES ($1, $2)', [noteBoxId, quote.quoteId]);
    await older.query(
      `INSERT INTO receipts (receipt_id, settlement_tx_id, note_box_id, quote_id, chain, bundle, payer_address) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [receipt.receiptId, receipt.settlementTxId, noteBoxId, quote.quoteId, receipt.chain, JSON.stringify(receipt), null],
    );

    // The new build starts and migrates; the older build's turn commits while the migration waits.
    const after = open(schema);
    const migrating = after.logSize();
    // Until the migration, having counted the receipts, waits for the older build's lock to create its triggers.
    for (let waited = 0; ; waited += 50) {
      const { rows } = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'agent-economy' AND wait_event_type = 'Lock' AND query ILIKE '%receipt_tally%'`);
      if (rows.length > 0 || waited > 5_000) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await older.query('COMMIT');
    expect(await migrating).toBe(2);

    const [{ count }] = (await admin.query<{ count: string }>('SELECT count(*) AS count FROM receipts')).rows as [{ count: string }];
    expect(Number(count)).toBe(3);
    // The tally the log's health compares with the log's size, and the gate of the search for unlogged receipts.
    expect(await after.countReceipts()).toBe(3);
    expect(await after.appendUnloggedReceipts()).toBe(1);
  }, 30_000);

  it('the triggers move the tally and the log revision of the receipts table that fired them, whatever search_path the session has', async () => {
    const one = schemaName();
    const two = schemaName();
    dropLater(one);
    dropLater(two);
    const storeOne = open(one);
    const storeTwo = open(two);
    const victim = await settleTurn(storeOne);
    await settleTurn(storeTwo);
    expect(await storeOne.countReceipts()).toBe(1);
    expect(await storeTwo.countReceipts()).toBe(1);
    const revisions = [await storeOne.logRevision(), await storeTwo.logRevision()];

    // An operator's session whose search_path names the other deployment, removing a receipt by its qualified name.
    const operator = await client(two);
    cleanups.push(() => operator.end());
    await operator.query(
      `DELETE FROM ${one}.payment_tokens WHERE receipt_id = $1; DELETE FROM ${one}.log_entries WHERE receipt_id = $1; DELETE FROM ${one}.receipts WHERE receipt_id = $1;`.replaceAll('$1', `'${victim.receiptId}'`),
    );

    expect(await storeTwo.countReceipts()).toBe(1);
    // The removal must show in the first store's count (0 receipts against 1 entry).
    expect(await storeOne.countReceipts()).toBe(0);
    // And in the first store's log revision (migration 11's triggers), so its kept entry bundle is read again.
    expect(await storeTwo.logRevision()).toBe(revisions[1]);
    expect(await storeOne.logRevision()).not.toBe(revisions[0]);
  }, 30_000);
});
