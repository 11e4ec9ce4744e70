// Password hashes are expensive on purpose (32 MiB of scrypt each): at most `slots` run at once, so a flood of
// logins cannot take every core from the API and the solvers; past `maxWaiting` queued, a login is turned away
// at once (the caller answers 429) rather than waiting in a queue that only grows.
export class HashingBusyError extends Error {
  override name = 'HashingBusyError';
}

export type HashingGate = <T>(fn: () => Promise<T>) => Promise<T>;

export function hashingGate(slots: number, maxWaiting: number): HashingGate {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running < slots) running++;
    else if (waiting.length >= maxWaiting)
      throw new HashingBusyError('Too many logins are being checked; try again in a second.');
    // A slot handed over by a finishing hash: `running` stays counted for this one.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
