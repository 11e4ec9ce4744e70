// How a job's status follows from its executions (contract decisions, section 3): the server's and the sandbox's.

export type JobStatus = 'PENDING' | 'RUNNING' | 'FINISHED' | 'ERROR' | 'CANCELLED';
export type ExecutionStatus = 'PENDING' | 'PREPARING' | 'RUNNING' | 'SUCCESS' | 'ERROR' | 'CANCELLED';

export const terminalJob: ReadonlySet<string> = new Set(['FINISHED', 'ERROR', 'CANCELLED']);
export const terminalExecution: ReadonlySet<string> = new Set(['SUCCESS', 'ERROR', 'CANCELLED']);

/**
 * PENDING until an execution leaves PENDING; RUNNING until every execution has ended; then CANCELLED if a
 * cancel stopped any execution, FINISHED if at least one succeeded, ERROR otherwise.
 */
export function deriveJobStatus(
  executions: readonly { status: string }[],
  hasRun: boolean,
  cancelRequested: boolean,
): JobStatus {
  if (executions.length > 0 && executions.every((e) => terminalExecution.has(e.status))) {
    if (cancelRequested && executions.some((e) => e.status === 'CANCELLED')) return 'CANCELLED';
    return executions.some((e) => e.status === 'SUCCESS') ? 'FINISHED' : 'ERROR';
  }
  return hasRun || executions.some((e) => e.status !== 'PENDING') ? 'RUNNING' : 'PENDING';
}
