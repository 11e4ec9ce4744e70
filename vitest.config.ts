import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', '{server,client,conformance}/test/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./server/test/support/no-server-errors.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
