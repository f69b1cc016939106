/**
 * What every method of POST /a2a shares: JSON-RPC answers and errors, the task lookups and the
 * owner credential a request carries. Every failure is a JSON-RPC error in a 200 answer, as JSON-RPC
 * clients expect.
 */
import { A2A_ERROR_CODES, type A2aResponse } from '../../../schemas/a2a.ts';
import { ownerCredentialOf } from '../../domain/assistant/a2a-task-owner.ts';
import type { TaskView } from '../../domain/assistant/a2a-x402.ts';
import type { StoredA2aTask } from '../../domain/ports.ts';
import { json, type ApiRequest, type ApiResponse } from '../../lib/api.ts';
import { jsonPointer, ProblemError } from '../../lib/problem-error.ts';

export type Id = string | number | null;

export const idOf = (body: unknown): Id => {
  const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
};

export const rpcError = (id: Id, name: keyof typeof A2A_ERROR_CODES, message: string, data?: unknown, headers?: Record<string, string>): ApiResponse =>
  json(200, { jsonrpc: '2.0', id, error: { code: A2A_ERROR_CODES[name], message, ...(data === undefined ? {} : { data }) } } satisfies A2aResponse, headers);

export const rpcResult = (id: Id, result: unknown, headers?: Record<string, string>): ApiResponse => json(200, { jsonrpc: '2.0', id, result } as A2aResponse, headers);

export const issuesOf = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) => issues.map((issue) => ({ path: jsonPointer(issue.path), message: issue.message }));

/** A parse failure of `method`'s params, naming each field. */
export const invalidParams = (id: Id, method: string, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): ApiResponse => {
  const named = issuesOf(issues);
  return rpcError(id, 'invalid_params', `Invalid params for ${method}: ${named.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ')}.`, named);
};

export const taskNotFound = (id: Id, taskId: string): ApiResponse =>
  rpcError(id, 'task_not_found', `Task not found: no task ${taskId.slice(0, 128)} (never created here, or deleted with its expired quote).`);

export const viewOf = ({ taskId, contextId, state, record, updatedAt }: StoredA2aTask): TaskView => ({ taskId, contextId, state, record, updatedAt });

/** A task id this service could have made: a task is never looked up by anything else (a hostile length, a U+0000). */
export const isTaskId = (taskId: string): boolean => /^[0-9a-f-]{36}$/.test(taskId);

const CHALLENGE = { 'www-authenticate': 'Bearer realm="a2a-task-owner"' };

/**
 * The owner hash of the credential a request carries, undefined without one. A malformed credential
 * is refused whatever the method: a client that meant to own its task must not create one nobody owns.
 */
export function callerOf(request: ApiRequest): string | undefined {
  const credential = ownerCredentialOf(request.headers.authorization);
  if (credential.kind === 'invalid') {
    throw new ProblemError(401, 'invalid_authorization', 'Invalid owner credential', `Invalid owner credential: ${credential.message}. Nothing was read.`, {
      errors: [{ path: '/headers/authorization', code: 'invalid_authorization', message: credential.message }],
      headers: CHALLENGE,
    });
  }
  return credential.kind === 'owner' ? credential.ownerHash : undefined;
}

/** The refusal of an act only a task's owner may take (`what`), for a caller who sent no credential. */
export function ownerCredentialRequired(what: string): ProblemError {
  return new ProblemError(
    401,
    'authorization_required',
    'Owner credential required',
    `${what} acts for the client that created the task: send "Authorization: Bearer <secret>" with the secret it sent when it created the task (32 characters or more).`,
    { headers: CHALLENGE },
  );
}

/** The refusal of an act only a task's owner may take, for a caller who is not its owner. */
export function notTaskOwner(taskId: string, what: string): ProblemError {
  return new ProblemError(
    403,
    'not_task_owner',
    'Not the task\'s owner',
    `Only the client that created task ${taskId}, presenting the bearer credential it created it with, may ${what}; a task created without one ends only when it is paid or when its quote expires.`,
  );
}
