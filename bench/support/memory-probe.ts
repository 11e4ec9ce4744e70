// Loaded into a benchmarked server (or sandbox) with `node --import` (memoryProbeOptions): every second its main
// thread writes what its memory is made of to the file MEMORY_PROBE_FILE names, as one JSON object, so that a
// benchmark can tell a leak (the live heap growing) from V8 taking room it may take (the heap's size growing with the
// live heap flat) and from the embedded database's WebAssembly memory. With JES_MEMORY_PROBE_GC set it collects
// garbage before each reading (the process must run with --expose-gc): the heap used is then the live heap. SIGUSR2
// writes a reading at once, after collecting garbage when the process runs with --expose-gc: the live heap at an
// instant the benchmark chooses, with no collection forced in between (bench/support/sandbox-memory.ts).
import { renameSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.MEMORY_PROBE_FILE;
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

if (isMainThread && file) {
  const gc = (globalThis as { gc?: () => void }).gc;
  const collect = process.env.JES_MEMORY_PROBE_GC ? gc : undefined;
  const write = () => {
    const m = process.memoryUsage();
    // Replaced whole: the benchmark wants the latest reading, and never reads one half-written.
    writeFileSync(
      `${file}.next`,
      JSON.stringify({
        rss: mib(m.rss),
        heapUsed: mib(m.heapUsed),
        heapTotal: mib(m.heapTotal),
        // PGlite's WebAssembly memory is counted here, with Buffers outside the heap.
        external: mib(m.external),
      }),
    );
    renameSync(`${file}.next`, file);
  };
  setInterval(() => {
    collect?.();
    write();
  }, 1000).unref();
  process.on('SIGUSR2', () => {
    gc?.();
    write();
  });
}
