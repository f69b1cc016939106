import type { Route } from '../types.ts';
export function liveRoutes(): Route[] {
  return [];
}
