// The memory half of the sandbox benchmark (bench/sandbox.ts): the stateful sandbox with its default caps, N job
// starts spread over a few users by a pool of requests, and at checkpoints its resident size (VmRSS of the child),
// V8's heap as the sandbox reads it (bench/support/memory-probe.ts: as it was, then its live part once garbage is
// collected) and the jobs it says it holds (its listings, GET /job page by page, for every user).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { json, send } from './client.ts';
import type { ChildServer } from '../../test/support/child-server.ts';

export interface MemoryCheckpoint {
  starts: number;
  /** Starts per second since the checkpoint before (the pool's, one request at a time per slot). */
  perSecond: number;
  /** Read with the starts paused, before anything below. */
  rss: number | undefined;
  /** V8's heap as it was (the probe's last reading of the second), then once garbage was collected: the live heap. */
  heapUsed: number | undefined;
  heapTotal: number | undefined;
  liveHeap: number | undefined;
  /** Jobs its listings show, in all, and by status. */
  held: number;
  byStatus: Record<string, number>;
  /** Answers to the starts so far, by status code. */
  answers: Record<number, number>;
  load: number;
}

const mib = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The child's resident memory in bytes (Linux /proc); undefined elsewhere. */
export function rssOf(pid: number | undefined): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** The sandbox's latest reading of its heap, in bytes (memory-probe.ts writes MiB once a second). */
function heapOf(probeFile: string): { heapUsed: number; heapTotal: number } | undefined {
  try {
    const read = JSON.parse(readFileSync(probeFile, 'utf8')) as { heapUsed: number; heapTotal: number };
    return { heapUsed: read.heapUsed * mib, heapTotal: read.heapTotal * mib };
  } catch {
    return undefined;
  }
}

/** Every job a user's listings show, by status (GET /job, 100 a page, newest first). */
async function listed(base: string, token: string, byStatus: Record<string, number>): Promise<number> {
  let count = 0;
  let after = '';
  for (;;) {
    const reply = await send(base, 'GET', `/job?limit=100${after ? `&starting_after=${after}` : ''}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (reply.status !== 200) throw new Error(`GET /job: ${reply.status} ${reply.body}`);
    const page = json(reply) as { ids: string[]; job: Record<string, { status: string }>; has_more: boolean };
    for (const id of page.ids) byStatus[page.job[id]!.status] = (byStatus[page.job[id]!.status] ?? 0) + 1;
    count += page.ids.length;
    if (!page.has_more || !page.ids.length) return count;
    after = page.ids.at(-1)!;
  }
}

/**
 * `total` starts of `body` on `sandbox`, `inFlight` at a time, user after user in turn (`tokens`), read at each of
 * `checkpoints` (numbers of starts, ascending) and once before the first start.
 */
export async function startsAndMemory(
  sandbox: ChildServer,
  probeFile: string,
  tokens: string[],
  body: string,
  checkpoints: number[],
  inFlight: number,
): Promise<MemoryCheckpoint[]> {
  const answers: Record<number, number> = {};
  const readings: MemoryCheckpoint[] = [];
  let done = 0;
  let segmentStarted = performance.now();
  const read = async (starts: number) => {
    const seconds = (performance.now() - segmentStarted) / 1000;
    const perSecond = starts === 0 ? 0 : (starts - (readings.at(-1)?.starts ?? 0)) / seconds;
    await sleep(1500); // a fresh reading of the probe, which writes once a second
    const rss = rssOf(sandbox.child.pid);
    const heap = heapOf(probeFile);
    // The probe collects garbage and writes at once on SIGUSR2; nothing is sent meanwhile.
    sandbox.child.kill('SIGUSR2');
    await sleep(300);
    const live = heapOf(probeFile);
    const byStatus: Record<string, number> = {};
    let held = 0;
    for (const token of tokens) held += await listed(sandbox.url, token, byStatus);
    readings.push({
      starts,
      perSecond,
      rss,
      heapUsed: heap?.heapUsed,
      heapTotal: heap?.heapTotal,
      liveHeap: live?.heapUsed,
      held,
      byStatus,
      answers: { ...answers },
      load: os.loadavg()[0]!,
    });
    segmentStarted = performance.now();
  };
  await read(0);
  for (const checkpoint of checkpoints) {
    const slot = async () => {
      while (done < checkpoint) {
        const i = done++;
        const reply = await send(sandbox.url, 'POST', '/problem/maxcut', {
          headers: { authorization: `Bearer ${tokens[i % tokens.length]!}`, 'content-type': 'application/json' },
          body,
        });
        answers[reply.status] = (answers[reply.status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: inFlight }, slot));
    if (!sandbox.alive())
      throw new Error(`the sandbox stopped (${sandbox.exited()}):\n${sandbox.output().slice(-4000)}`);
    await read(checkpoint);
  }
  return readings;
}
