// One process per embedded database: a second one opening the same folder made PGlite abort with 92 KB of its
// minified code. The holder keeps a lock file in the folder (its pid and when it started), made whole beside it
// and linked into place, which fails if one is there: no reader sees half a lock, and of two that start
// together one wins. A lock whose process is gone (killed with -9) or whose pid now names another process
// (the pid reused after a reboot or a container's restart) is stale, and taken over.
import { execFileSync } from 'node:child_process';
import { linkSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/config.ts';

export const lockFileName = 'jes-server.lock';

interface Holder {
  pid: number;
  /** When the process started, as an ISO time (for the message). */
  started: string;
  /** What tells this process from another with the same pid later: its start in the kernel's own terms. */
  identity: string | undefined;
}

/** The locks this process holds (by real path, however the folder was named): released at exit if nobody closed them. */
const held = new Map<string, number>();
process.once('exit', () => {
  for (const [path, ino] of held) removeIfSame(path, ino);
});

/**
 * When `pid` started, in terms that change when the pid is reused: on Linux the start tick in /proc (exact,
 * no process spawned); elsewhere `ps -o lstart` (to the second); undefined when neither answers.
 */
export function processIdentity(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; the start tick is field 22.
    return `linux:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {}
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return started ? `ps:${started}` : undefined;
  } catch {
    return undefined;
  }
}

function readHolder(path: string): { holder: Holder | undefined; ino: number } | undefined {
  try {
    const ino = statSync(path).ino;
    let holder: Holder | undefined;
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
      if (Number.isInteger(parsed.pid) && typeof parsed.started === 'string') holder = parsed as Holder;
    } catch {}
    return { holder, ino };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether the process that wrote `holder` is still running (when in doubt, yes: refusing is safe). */
function running(holder: Holder, path: string): boolean {
  if (holder.pid === process.pid) return held.has(path);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: a process of another user has that pid; whether it is the holder is decided below.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const now = processIdentity(holder.pid);
  return holder.identity === undefined || now === undefined || now === holder.identity;
}

/** Removes the lock at `path` if it is still the file `ino` (not one another process has put there since). */
function removeIfSame(path: string, ino: number): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (statSync(aside).ino !== ino) {
    // Another process took the lock over in between: put its lock back.
    try {
      linkSync(aside, path);
    } catch {}
  }
  unlinkSync(aside);
}

/** 2026-11-24 09:41:07, in local time. */
function when(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * Takes the lock on the embedded database in `dataDir` (which exists), or throws a ConfigError naming the
 * process that holds it. Returns the release, which removes the lock file.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(realpathSync(dataDir), lockFileName);
  const started = new Date(performance.timeOrigin).toISOString();
  const mine: Holder = { pid: process.pid, started, identity: processIdentity(process.pid) };
  const draft = `${path}.${process.pid}.new`;
  try {
    writeFileSync(draft, `${JSON.stringify(mine)}\n`);
  } catch (error) {
    throw new ConfigError(
      `JES_DATA_DIR: cannot write in ${dataDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    // Each turn either takes the lock, refuses, or removes a stale one; another process may act in between.
    for (let turn = 0; turn < 10; turn++) {
      try {
        linkSync(draft, path);
        const ino = statSync(path).ino;
        held.set(path, ino);
        return () => {
          if (held.get(path) !== ino) return;
          held.delete(path);
          removeIfSame(path, ino);
        };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST')
          throw new ConfigError(`JES_DATA_DIR: cannot lock ${dataDir} (${code ?? (error as Error).message})`);
      }
      const found = readHolder(path);
      if (!found) continue;
      const { holder } = found;
      if (holder && running(holder, path)) {
        throw new ConfigError(
          `${dataDir} is in use by process ${holder.pid} (started ${when(holder.started)}); stop it or set JES_DATA_DIR`,
        );
      }
      removeIfSame(path, found.ino);
    }
    throw new ConfigError(
      `${dataDir}: could not take its lock (${lockFileName}) after 10 tries; is another server starting on it?`,
    );
  } finally {
    unlinkSync(draft);
  }
}
