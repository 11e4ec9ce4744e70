import { availableParallelism } from 'node:os';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // A @jes package imported by name resolves to its TypeScript sources, as `node --conditions=jes-source` does.
  ssr: { resolve: { conditions: ['jes-source', ...defaultServerConditions] } },
  test: {
    include: ['test/**/*.test.ts', '{contract,server,client,conformance,sandbox}/test/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./server/test/support/no-server-errors.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default (one core left for itself) leaves a 2-core machine one worker: 736 s for .ci/run against
    // 468 s with two, as most of the time the tests wait on servers, databases and solver threads, not the CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
