import type { Route } from '../types.ts';
export function developerRoutes(): Route[] {
  return [];
}
