// Reads of data-file chunks (1 MiB each) take turns. On the embedded database one connection serves every request,
// and 200 clients asking for a 60 MB file's input (and never reading it) kept it busy for 37 s: every other request
// waited (issue 27); on PostgreSQL they would hold the pool's connections. At most `turns` chunk reads run at once,
// per database; the others wait here, outside the database's queue, so a health probe or a job read goes between.

import { setImmediate as nextTurn } from 'node:timers/promises';

const turns = 2;

interface Turns {
  running: number;
  waiting: (() => void)[];
}

const byDatabase = new WeakMap<object, Turns>();

/** Runs `read` once a turn is free for `db`. */
export async function inTurn<T>(db: object, read: () => Promise<T>): Promise<T> {
  let state = byDatabase.get(db);
  if (!state) byDatabase.set(db, (state = { running: 0, waiting: [] }));
  if (state.running >= turns) await new Promise<void>((resolve) => state.waiting.push(resolve));
  else state.running++;
  try {
    // The embedded database answers synchronously: reads chained by promises ran back to back in one turn of the
    // event loop, for seconds (200 readers), before a request that came meanwhile was even read. Each read waits
    // for the loop's next turn first.
    await nextTurn();
    return await read();
  } finally {
    const next = state.waiting.shift();
    if (next)
      next(); // the turn passes on: running stays the same
    else state.running--;
  }
}
