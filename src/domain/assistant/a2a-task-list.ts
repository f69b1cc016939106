/**
 * ListTasks' cursor and filter in A2A 1.0's terms. A page ends at a task; the next page starts after
 * it in the order A2A requires (status timestamp descending, then task id, so two tasks of one
 * millisecond keep an order): its token names that instant and id, so the store reads the next page
 * as one range of its index however deep the client pages, never by an offset.
 */
import { A2A_PAGE_TOKEN_MAX_LENGTH, type A2A_TASK_STATES_V1 } from '../../../schemas/a2a.ts';
import type { A2aTaskState } from '../ports.ts';
import { V1_STATES } from './a2a-x402.ts';

/** Where a page ended: the last task's status instant and id. */
export interface PageCursor {
  updatedAt: Date;
  taskId: string;
}

const TOKEN_VERSION = 'v1';

/** The token of the page after the one that ended at `last`: opaque to clients, base64url text. */
export function pageTokenOf(last: PageCursor): string {
  return Buffer.from(`${TOKEN_VERSION} ${last.updatedAt.toISOString()} ${last.taskId}`, 'utf8').toString('base64url');
}

/** The cursor a token names, or undefined when it is not one this service wrote. */
export function readPageToken(token: string): PageCursor | undefined {
  if (token.length > A2A_PAGE_TOKEN_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const [version, instant, taskId, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split(' ');
  if (version !== TOKEN_VERSION || rest.length > 0 || !instant || !taskId || !/^[0-9a-f-]{36}$/.test(taskId)) return undefined;
  const updatedAt = new Date(instant);
  return Number.isNaN(updatedAt.getTime()) || updatedAt.toISOString() !== instant ? undefined : { updatedAt, taskId };
}

/**
 * The stored state a ListTasks `status` filter asks for: `any` for none (or TASK_STATE_UNSPECIFIED,
 * ProtoJSON's unset value), `none` for a state no task here is ever in (submitted, rejected, auth
 * required), so the answer is an empty page without a read.
 */
export function stateFilterOf(status: (typeof A2A_TASK_STATES_V1)[number] | undefined): A2aTaskState | 'any' | 'none' {
  if (status === undefined || status === 'TASK_STATE_UNSPECIFIED') return 'any';
  const stored = (Object.entries(V1_STATES) as Array<[A2aTaskState, string]>).find(([, name]) => name === status);
  return stored ? stored[0] : 'none';
}
