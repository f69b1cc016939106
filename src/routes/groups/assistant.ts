import type { Route } from '../types.ts';
export function assistantRoutes(): Route[] {
  return [];
}
