// The benchmark's settings: quick or full run, its user, the contract's inline limit.
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const quick = process.argv.includes('--quick');
/** The server installed from its packed tarball rather than this clone's (bench/support/installed.ts). */
export const installed = process.argv.includes('--installed');
export const settings = quick
  ? {
      connections: 50,
      warmupSeconds: 1,
      durationSeconds: 2,
      jobs: 100,
      jobWarmup: 10,
      inFlight: 32,
      bigRuns: 5,
      parseRuns: 5,
      rounds: 2,
    }
  : {
      connections: 50,
      warmupSeconds: 2,
      durationSeconds: 8,
      jobs: 1000,
      jobWarmup: 50,
      inFlight: 32,
      bigRuns: 15,
      parseRuns: 15,
      rounds: 4,
    };

export const user = { username: 'bench', password: 'bench-password-1' };
export const maxInlineBytes = 4 * 1024 * 1024; // the contract's max_inline_bytes: a body must be smaller
export const terminal = new Set(['FINISHED', 'ERROR', 'CANCELLED']);
