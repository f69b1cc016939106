/**
 * A route of the table: a catalogue entry bound to what answers it, the builder of a static body
 * or the handler of a dynamic route (src/routes/table.ts binds them by id).
 */
import type { DynamicEntry, StaticEntry } from '../catalogue/types.ts';
import type { Handler } from '../lib/api.ts';

export interface StaticRoute extends StaticEntry {
  /** Builds the body; the result is parsed by `schema` at build, so content errors fail the build. */
  build?: () => unknown;
}

export interface DynamicRoute extends DynamicEntry {
  handler?: Handler;
}

export type Route = StaticRoute | DynamicRoute;

/** What a group binds to one catalogue id. */
export type Binding = { build: () => unknown } | { handler: Handler };
