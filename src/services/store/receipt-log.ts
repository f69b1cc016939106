/**
 * The receipt log's writes, run inside the store's transactions: appending one entry (its index
 * taken from the one head row, its stored hashes written beside it) and appending every stored
 * receipt the log lacks. Taking the index is an UPDATE of that row, so on PostgreSQL concurrent
 * settlements wait for one another there and get indexes in the order they commit; on SQLite the
 * transaction already holds the database's one write lock.
 *
 * An entry is the RFC 8785 canonical JSON of the receipt bundle as it is served; the log keeps its
 * index and receipt id, and reads the bytes back from the receipt itself, so a receipt rewritten in
 * the store no longer hashes to its leaf and a monitor sees it.
 */
import { hex } from '@fleet-sdk/crypto';
import type { ReceiptBundle } from '../../../schemas/receipt.ts';
import { receiptLogEntry } from '../../domain/receipt-log-entry.ts';
import { MAX_ENTRY_SIZE } from '../../domain/tlog/tiles.ts';
import { appendHashes, appendReadIndexes, leafHash, storedHashIndex } from '../../domain/tlog/tree.ts';
import type { Queryable } from './database.ts';
import type { Dialect } from './dialect.ts';
import { readBundle } from './rows.ts';

/** Appends `receipt` as the next entry; returns its index. Must run in the transaction that stores the receipt. */
export async function appendEntry(tx: Queryable, receipt: ReceiptBundle): Promise<number> {
  const [head] = await tx.query<{ idx: number | string }>('UPDATE log_head SET size = size + 1 WHERE id = 1 RETURNING size - 1 AS idx');
  const index = Number(head!.idx);
  const bytes = receiptLogEntry(receipt);
  // An entry bundle prefixes each entry with a 16-bit length; a bundle this large is refused whole rather than logged unreadable.
  if (bytes.length > MAX_ENTRY_SIZE) throw new Error(`receipt log: receipt ${receipt.receiptId} is ${bytes.length} bytes, more than an entry may be (${MAX_ENTRY_SIZE})`);
  const needed = appendReadIndexes(index);
  const read = needed.length
    ? await tx.query<{ hash_index: number | string; hash: string }>(`SELECT hash_index, hash FROM log_hashes WHERE hash_index IN (${needed.map((_, i) => `$${i + 1}`).join(', ')})`, needed)
    : [];
  const byIndex = new Map(read.map((row) => [Number(row.hash_index), row.hash]));
  const siblings = needed.map((at) => {
    const hash = byIndex.get(at);
    if (hash === undefined) throw new Error(`receipt log: stored hash ${at} is missing while appending entry ${index}`);
    return hex.decode(hash);
  });
  const stored = appendHashes(index, leafHash(bytes), siblings);
  const first = storedHashIndex(0, index);
  await tx.query(
    `INSERT INTO log_hashes (hash_index, hash) VALUES ${stored.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ')}`,
    stored.flatMap((hash, i) => [first + i, hex.encode(hash)]),
  );
  await tx.query('INSERT INTO log_entries (idx, receipt_id) VALUES ($1, $2)', [index, receipt.receiptId]);
  return index;
}

/**
 * Appends every stored receipt that has no entry yet, in the order they were stored: the receipts a
 * store held before the log existed (the migration that creates it runs this), and any a build
 * without the log stored beside this one during a rolling deploy. Returns how many were appended.
 */
export async function appendUnlogged(tx: Queryable, dialect: Dialect): Promise<number> {
  const rows = await tx.query<{ bundle: string }>(
    `SELECT CAST(r.bundle AS TEXT) AS bundle FROM receipts r
      WHERE NOT EXISTS (SELECT 1 FROM log_entries e WHERE e.receipt_id = r.receipt_id)
      ORDER BY r.created_at ASC, ${dialect.name === 'sqlite' ? 'r.rowid ASC' : 'r.receipt_id ASC'}`,
  );
  for (const row of rows) await appendEntry(tx, readBundle(dialect, row.bundle));
  return rows.length;
}
