/**
 * The outside parts the MCP tools use, from this process's runtime. The store is the configured one
 * in both cases: the embedded SQLite file in DATA_DIR may be opened by several processes at once (its
 * own locks order their writes), so a standalone MCP host on the site's DATA_DIR reads and writes the
 * same receipts as the site.
 */
import { paidTurnConfig } from '../config/assistant.ts';
import type { AssistantDeps } from '../services/paid-turn/deps.ts';
import { liveStatus, runtimeSources } from '../services/live-status.ts';
import { StoreUnavailableError, type AssistantStore } from '../domain/ports.ts';
import { logger } from '../services/logger.ts';
import { ToolError, type ToolServices } from './tools.ts';

/** Tells this process's receipt log a receipt was stored; a log that cannot be made yet is left to the checkpointer. */
function receiptStored(parts: Awaited<ReturnType<typeof runtimeSources>>): void {
  try {
    parts.receiptLog().receiptStored();
  } catch {
    // No key to sign with yet: the checkpointer tries again.
  }
}

/** The tools' view of this process's runtime: the same live status and assistant parts the site's routes use. */
export function createMcpToolServices(): ToolServices {
  return {
    liveStatus,
    receiptLog: async () => {
      try {
        return (await import('../services/runtime.ts')).getReceiptLog();
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        logger.warn({ err: error }, 'MCP tool: receipt log unavailable');
        throw new ToolError('receipt_storage_unavailable', 'The receipt log cannot be read right now; retry shortly.');
      }
    },
    assistant: async (): Promise<AssistantDeps> => {
      const parts = await runtimeSources();
      let store: AssistantStore;
      try {
        store = parts.store();
      } catch (error) {
        if (error instanceof StoreUnavailableError) {
          // The cause names the store's file or host: the operator reads it in the log, the client gets the service's words.
          logger.warn({ err: error }, 'MCP tool: receipt store unavailable');
          throw new ToolError('receipt_storage_unavailable', 'The receipt store cannot be reached right now; retry shortly.');
        }
        throw error;
      }
      return { store, chain: parts.chain(), limiter: parts.limiter(), model: parts.model(), clock: () => new Date(), config: paidTurnConfig, receiptStored: () => receiptStored(parts), receiptLogRefusal: async () => (await parts.receiptLog().signingRefused())?.reason, receiptInCheckpoint: (receiptId) => parts.receiptLog().inCheckpoint(receiptId), ...(parts.offerReceipts ? { offerReceipts: parts.offerReceipts() } : {}) };
    },
  };
}
