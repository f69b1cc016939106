/**
 * The outside parts the MCP tools use, from this process's runtime. The embedded store (PGlite in
 * DATA_DIR) serves one process and is locked by the one that opens it: a standalone MCP host must
 * never open it, or it would lock the site out of its own receipts. So a standalone host uses the
 * store only when it is a shared PostgreSQL (DATABASE_URL); with the embedded store, the tools that
 * need it answer `receipt_storage_unavailable` with that fix, and live status reports the same.
 * A host started inside the site process (MCP_WITH_SITE) shares the site's store.
 */
import { paidTurnConfig } from '../config/assistant.ts';
import { loadStoreConfig } from '../config/store.ts';
import type { AssistantDeps } from '../routes/assistant/deps.ts';
import { createLiveStatus, liveStatus as siteLiveStatus, runtimeSources, type LiveSources } from '../services/live-status.ts';
import { StoreUnavailableError, type AssistantStore } from '../services/ports.ts';
import { ToolError, type ToolServices } from './tools.ts';

export const EMBEDDED_STORE_NOT_SHARED =
  'The embedded store (PGlite in DATA_DIR) belongs to the site process, so this standalone MCP host does not open it. ' +
  'Run the site and the MCP host with one DATABASE_URL (PostgreSQL), or start the MCP host inside the site with MCP_WITH_SITE=true.';

/** The configured store, unless it is the embedded one and this process does not own it. */
function storeGetter(get: () => AssistantStore, ownsEmbeddedStore: boolean): () => AssistantStore {
  return () => {
    if (!ownsEmbeddedStore && loadStoreConfig().driver === 'pglite') throw new StoreUnavailableError(EMBEDDED_STORE_NOT_SHARED);
    return get();
  };
}

/** `ownsEmbeddedStore`: true when the host runs inside the site process. */
export function createMcpToolServices(options: { ownsEmbeddedStore: boolean }): ToolServices {
  const sources = async (): Promise<LiveSources> => {
    const runtime = await runtimeSources();
    return { ...runtime, store: storeGetter(runtime.store, options.ownsEmbeddedStore) };
  };
  const liveStatus = options.ownsEmbeddedStore ? siteLiveStatus : createLiveStatus(sources);
  return {
    liveStatus,
    assistant: async (): Promise<AssistantDeps> => {
      const parts = await sources();
      let store: AssistantStore;
      try {
        store = parts.store();
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw new ToolError('receipt_storage_unavailable', error.message);
        throw error;
      }
      return { store, chain: parts.chain(), limiter: parts.limiter(), model: parts.model(), clock: () => new Date(), config: paidTurnConfig };
    },
  };
}
