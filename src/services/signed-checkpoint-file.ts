/**
 * Where the receipt log keeps the last checkpoint it signed, outside its database (LOG_STATE_FILE,
 * beside the key by default): a restored or rewritten database cannot move it back, so the log
 * never signs a tree that does not extend it (docs/transparency-log.md, "What the log signs"). The
 * file holds the signed note exactly as served; it verifies with the log's key, so it needs no
 * other protection than not being lost.
 */
import { readFileSync } from 'node:fs';
import { writeFileDurably } from '../lib/durable-file.ts';

export interface SignedCheckpointKeeper {
  /** Where it is kept, for messages. */
  readonly where: string;
  /** The last signed checkpoint's note, or undefined when none was kept yet. */
  read(): string | undefined;
  /** Keeps `note`, durably, before it is published. */
  write(note: string): void;
}

/** The keeper in `file`, written durably: a crash leaves the old note or the new one. */
export function signedCheckpointFile(file: string): SignedCheckpointKeeper {
  return {
    where: file,
    read() {
      try {
        return readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write: (note) => writeFileDurably(file, note),
  };
}

/** A keeper in memory, for a log whose tests hand it no file: the rule holds for the process's life. */
export function signedCheckpointInMemory(): SignedCheckpointKeeper {
  let kept: string | undefined;
  return { where: 'memory', read: () => kept, write: (note) => void (kept = note) };
}
