/** The store's kept entry bundles (migration 12) over a Map, for the in-memory receipt logs of unit tests. */
import type { KeptBundle, ReceiptLogStore } from '../../src/domain/ports.ts';

export function memoryKeptBundles(): Pick<ReceiptLogStore, 'keptBundle' | 'keepBundle' | 'keptBundleIndexes'> & { kept: Map<number, KeptBundle> } {
  const kept = new Map<number, KeptBundle>();
  return {
    kept,
    keptBundle: async (n) => kept.get(n),
    keepBundle: async (n, bundle) => void kept.set(n, bundle),
    keptBundleIndexes: async (revision) => [...kept].filter(([, bundle]) => bundle.revision === revision).map(([n]) => n),
  };
}
