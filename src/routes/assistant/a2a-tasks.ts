/**
 * The task methods of POST /a2a: GetTask (`tasks/get`) reads a task by its id, for whoever holds it;
 * ListTasks pages the caller's own tasks; CancelTask (`tasks/cancel`) ends a task waiting for its
 * payment, for its owner only. A task's owner is the bearer credential it was created with
 * (src/domain/assistant/a2a-task-owner.ts); a task created without one is in nobody's list and
 * nobody can cancel it.
 */
import {
  A2A_LIST_PAGE_SIZE,
  A2A_METHODS,
  a2aCancelTaskV0_3Schema,
  a2aCancelTaskV1Schema,
  a2aGetTaskV0_3Schema,
  a2aGetTaskV1Schema,
  a2aListTasksV1Schema,
} from '../../../schemas/a2a.ts';
import { pageTokenOf, readPageToken, stateFilterOf } from '../../domain/assistant/a2a-task-list.ts';
import { isTaskOwner } from '../../domain/assistant/a2a-task-owner.ts';
import { canceledRecord, taskV0_3, taskV1 } from '../../domain/assistant/a2a-x402.ts';
import { ENDED_A2A_TASK_STATES, type StoredA2aTask } from '../../domain/ports.ts';
import type { ApiRequest, ApiResponse } from '../../lib/api.ts';
import { fromStore, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { invalidParams, isTaskId, notTaskOwner, ownerCredentialRequired, rpcError, rpcResult, taskNotFound, viewOf, type Id } from './a2a-rpc.ts';

const GET_TASK = {
  [A2A_METHODS.getTaskV1]: { request: a2aGetTaskV1Schema, task: taskV1 },
  [A2A_METHODS.getTaskV0_3]: { request: a2aGetTaskV0_3Schema, task: taskV0_3 },
};

const CANCEL_TASK = {
  [A2A_METHODS.cancelTaskV1]: { request: a2aCancelTaskV1Schema, task: taskV1 },
  [A2A_METHODS.cancelTaskV0_3]: { request: a2aCancelTaskV0_3Schema, task: taskV0_3 },
};

/** A cancel that lost its fence to another message this many times in a row answers where the task stands. */
const CANCEL_ATTEMPTS = 3;

/** A method's answer; `caller` is the owner hash of the request's credential, undefined without one. */
export type A2aMethod = (request: ApiRequest, id: Id, method: string, caller: string | undefined) => Promise<ApiResponse>;

/** The task methods by their name in either version. */
export function createA2aTaskMethods(deps: Pick<AssistantDeps, 'store' | 'clock'>): Record<string, A2aMethod> {
  const { store, clock } = deps;
  const find = (taskId: string) => (isTaskId(taskId) ? fromStore(() => store.getA2aTask(taskId)) : Promise.resolve(undefined));

  const getTask: A2aMethod = async (request, id, method) => {
    const reader = GET_TASK[method as keyof typeof GET_TASK];
    const parsed = reader.request.safeParse(request.body);
    if (!parsed.success) return invalidParams(id, method, parsed.error.issues);
    const task = await find(parsed.data.params.id);
    if (!task) return taskNotFound(id, parsed.data.params.id);
    return rpcResult(id, reader.task(viewOf(task)));
  };

  const listTasks: A2aMethod = async (request, id, method, ownerHash) => {
    const parsed = a2aListTasksV1Schema.safeParse(request.body);
    if (!parsed.success) return invalidParams(id, method, parsed.error.issues);
    const params = parsed.data.params ?? {};
    if (ownerHash === undefined) throw ownerCredentialRequired('ListTasks');
    const after = params.pageToken ? readPageToken(params.pageToken) : undefined;
    if (params.pageToken && !after) {
      return invalidParams(id, method, [{ path: ['params', 'pageToken'], message: 'is not a nextPageToken this agent gave: send the one the previous page carried, or none for the first page' }]);
    }
    const pageSize = params.pageSize ?? A2A_LIST_PAGE_SIZE.default;
    const state = stateFilterOf(params.status);
    if (state === 'none') return rpcResult(id, { tasks: [], nextPageToken: '', pageSize, totalSize: 0 });
    // One task more than the page says whether another page follows.
    const { tasks, total } = await fromStore(() =>
      store.listA2aTasks({
        ownerHash,
        contextId: params.contextId,
        state: state === 'any' ? undefined : state,
        updatedFrom: params.statusTimestampAfter === undefined ? undefined : new Date(params.statusTimestampAfter),
        after,
        limit: pageSize + 1,
      }),
    );
    const page = tasks.slice(0, pageSize);
    const last = page.at(-1);
    return rpcResult(id, {
      tasks: page.map((task) => taskV1(viewOf(task), { artifacts: params.includeArtifacts === true })),
      nextPageToken: tasks.length > pageSize && last ? pageTokenOf(last) : '',
      pageSize,
      totalSize: total,
    });
  };

  const cancelTask: A2aMethod = async (request, id, method, ownerHash) => {
    const canceler = CANCEL_TASK[method as keyof typeof CANCEL_TASK];
    const parsed = canceler.request.safeParse(request.body);
    if (!parsed.success) return invalidParams(id, method, parsed.error.issues);
    const taskId = parsed.data.params.id;
    if (ownerHash === undefined) throw ownerCredentialRequired(method);
    let task = await find(taskId);
    if (!task) return taskNotFound(id, taskId);
    if (!isTaskOwner(task.ownerHash, ownerHash)) throw notTaskOwner(taskId, 'cancel it');
    for (let attempt = 0; attempt < CANCEL_ATTEMPTS; attempt++) {
      const refusal = notCancelable(task);
      if (refusal) return rpcError(id, 'task_not_cancelable', `Task not cancelable: task ${taskId} ${refusal}`);
      const seenAt = task.updatedAt;
      const canceled = await fromStore(() => store.cancelA2aTask({ taskId, seenAt, record: canceledRecord(), now: clock() }));
      if (canceled) return rpcResult(id, canceler.task(viewOf(canceled)));
      // Another message moved the task since it was read: judge it again as it stands now.
      task = await find(taskId);
      if (!task) return taskNotFound(id, taskId);
    }
    return rpcError(id, 'task_not_cancelable', `Task not cancelable: task ${taskId} keeps changing under other messages; ask again.`);
  };

  return {
    [A2A_METHODS.getTaskV1]: getTask,
    [A2A_METHODS.getTaskV0_3]: getTask,
    [A2A_METHODS.listTasksV1]: listTasks,
    [A2A_METHODS.cancelTaskV1]: cancelTask,
    [A2A_METHODS.cancelTaskV0_3]: cancelTask,
  };
}

/**
 * Why a task cannot be canceled now, in words that end a sentence, or undefined when it can: an
 * ended task stays as it ended, and a paid turn is never thrown away (a task being settled, or
 * whose payment settled and waits for its answer, finishes with it).
 */
function notCancelable(task: StoredA2aTask): string | undefined {
  if (ENDED_A2A_TASK_STATES.has(task.state)) return `has ended (${task.state}); GetTask reads it.`;
  if (task.state === 'working') return 'is being settled by a payment sent on it right now; GetTask tells when that ends.';
  if (task.record.settled) return `was paid (receipt ${task.record.settled.receiptId}) and waits only for its answer: send the same payment message again to get it.`;
  return undefined;
}
