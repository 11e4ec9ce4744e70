// Which database failures are worth another try: the database could not be reached (the connection went away
// in a failover, a restart, an administrator's pg_terminate_backend, a network reset; or none could be had, the
// server starting, shutting down or refusing connections), or it answered with a lock or serialisation conflict.
// Anything else (a constraint, a bug in our SQL) is not retried. The two kinds are told apart for the worker: an
// unreachable database is waited for, however long, but a conflict that lasts has the execution handed back.

/** SQLSTATEs of a database that answered but could not do it now. */
const conflictStates = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available (lock_timeout)
]);

/** SQLSTATEs of a database that could not be reached (besides class 08, connection exceptions). */
const unreachableStates = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '53300', // too_many_connections
]);

/** Socket errors from node:net. */
const socketCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** pg's own messages for a connection that is gone or cannot be had. */
const connectionMessages =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/i;

export function isTransient(error: unknown): boolean {
  return isUnreachable(error) || (error instanceof Error && conflictStates.has(codeOf(error)));
}

/** The database could not be reached: no connection could be had, or the one in use went away. */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (unreachableStates.has(code) || code.startsWith('08') || socketCodes.has(code)) return true;
  return connectionMessages.test(error.message);
}

function codeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

export interface RetryOptions {
  /** Tries in all (the first included). */
  tries?: number;
  /** The first pause, doubled after each failure (with jitter), at most `maxDelayMs`. */
  delayMs?: number;
  maxDelayMs?: number;
  /** Called before each pause with the failure and the try that failed (1-based). */
  onRetry?: (error: unknown, attempt: number) => void;
}

/** Runs `fn` again after a transient failure, with exponential backoff; other failures and the last one are thrown. */
export async function retryTransient<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { tries = 5, delayMs = 100, maxDelayMs = 5000, onRetry } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= tries || !isTransient(error)) throw error;
      onRetry?.(error, attempt);
      const pause = Math.min(maxDelayMs, delayMs * 2 ** (attempt - 1));
      await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * (pause / 2)));
    }
  }
}
