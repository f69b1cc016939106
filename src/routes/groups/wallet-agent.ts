import type { Route } from '../types.ts';
export function walletAgentRoutes(): Route[] {
  return [];
}
