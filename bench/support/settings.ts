// The benchmark's settings: quick or full run, its user, the contract's inline limit.
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const quick = process.argv.includes('--quick');
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
    };

export const user = { username: 'bench', password: 'bench-password-1' };
export const maxInlineBytes = 4 * 1024 * 1024; // the contract's max_inline_bytes: a body must be smaller
export const terminal = new Set(['FINISHED', 'ERROR', 'CANCELLED']);
