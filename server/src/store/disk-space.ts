// Free space on the embedded database's disk, watched (issue 28): a full disk froze the embedded server until a
// kill -9 (PGlite spun inside a failed CHECKPOINT), and with 2 MB left new jobs got 500s while /healthz said "ok".
// Writes that are large or new (uploads, job starts, validations) are refused while the free space is below a floor,
// so that what must still be written (a running job's outcome, a status) finds room; /healthz says so; it recovers by
// itself once space is freed. PostgreSQL keeps its disk elsewhere: there, its own disk_full error is answered.
import { statfs } from 'node:fs/promises';
import { statfsSync } from 'node:fs';

export interface DiskSpace {
  /** 'low' while the free space is below the floor, as last seen (checked every 2 s). */
  state(): 'ok' | 'low';
  /** Whether `bytes` more can be written now and leave the floor free (read from the disk, not from the watch). */
  room(bytes: number): boolean;
  /** The floor and the free space last seen, for a problem's detail. */
  readonly floorBytes: number;
  free(): number;
  stop(): void;
}

const everyMs = 2000;

/** Watches the disk holding `dir`; undefined for a database that keeps no local files (memory:, PostgreSQL). */
export async function watchDiskSpace(dir: string | undefined, floorBytes: number): Promise<DiskSpace | undefined> {
  if (dir === undefined || dir === 'memory:') return undefined;
  const available = (stats: { bavail: number; bsize: number }) => stats.bavail * stats.bsize;
  let free = available(await statfs(dir));
  const timer = setInterval(() => {
    statfs(dir).then(
      (stats) => void (free = available(stats)),
      () => {}, // a failed reading leaves the last one
    );
  }, everyMs).unref();
  return {
    floorBytes,
    state: () => (free < floorBytes ? 'low' : 'ok'),
    room(bytes) {
      try {
        free = available(statfsSync(dir));
      } catch {}
      return free - bytes >= floorBytes;
    },
    free: () => free,
    stop: () => clearInterval(timer),
  };
}

/** A write the disk had no room for: PostgreSQL's disk_full (53100), or the embedded database's ENOSPC. */
export function isDiskFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '53100' || code === 'ENOSPC' || /No space left on device/i.test(error.message);
}
