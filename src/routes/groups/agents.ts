import type { Route } from '../types.ts';
export function agentsRoutes(): Route[] {
  return [];
}
