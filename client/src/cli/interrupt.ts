// Ctrl-C while jes waits for a job: the wait stops and the command exits 130, saying that the job goes on
// running in the service and how to stop it, or (--cancel-on-interrupt) cancelling it and saying so.
// A second Ctrl-C meanwhile ends the process at once (Node's default, the listener being gone).
import { formatProblem, type JesClient } from '../index.ts';
import { ExitError, exitCodes } from './errors.ts';

async function interrupted(client: JesClient, id: string, cancel: boolean): Promise<ExitError> {
  const end = (detail: string) => new ExitError(exitCodes.interrupted, { code: 'interrupted', detail });
  if (!cancel) return end(`job ${id} is still running; stop it with: jes cancel ${id}`);
  const cancelled = await client.cancelJob(id);
  if (cancelled.error) return end(`job ${id} was not cancelled: ${formatProblem(cancelled.error)}`);
  return end(`cancel requested for job ${id} (now ${cancelled.data.status}); its solvers stop within a second`);
}

/**
 * Runs `wait` with a signal that SIGINT aborts; `settle` runs once it has stopped, either way (to end a
 * progress line). After an interrupt, rejects with the ExitError that reports it.
 */
export async function interruptible<T>(
  client: JesClient,
  id: string,
  cancel: boolean,
  wait: (signal: AbortSignal) => Promise<T>,
  settle: () => void,
): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  try {
    return await wait(controller.signal);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    throw await interrupted(client, id, cancel);
  } finally {
    process.off('SIGINT', abort);
    settle();
  }
}
