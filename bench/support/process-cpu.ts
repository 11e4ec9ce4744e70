// CPU seconds a process has used, all its threads (Linux /proc; USER_HZ = 100), for the benchmarks that print CPU per
// process (bench:scale): the jes processes and PostgreSQL's backends, read before and after a run.
import { readFileSync } from 'node:fs';

/** user + system CPU seconds of process `pid` and its threads; undefined where /proc is missing or it has gone. */
export function processCpu(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The CPU a process uses from now on: `read()` gives the seconds since. */
export function cpuSince(pid: number | undefined): { read(): number | undefined } {
  const start = processCpu(pid);
  return {
    read() {
      const now = processCpu(pid);
      return start === undefined || now === undefined ? undefined : now - start;
    },
  };
}
