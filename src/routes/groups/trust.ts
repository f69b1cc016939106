import type { Route } from '../types.ts';
export function trustRoutes(): Route[] {
  return [];
}
