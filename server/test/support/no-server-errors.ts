// Setup for every test file: no request may have produced a 5xx (a server error is a bug, whatever the test).
import { afterAll, expect } from 'vitest';
import { serverErrors } from './server-errors.ts';

afterAll(() => {
  // Emptied as it is read: the next file a worker runs (vitest.config.ts: isolate off) starts with none.
  expect(serverErrors.splice(0), 'responses with a 5xx status').toEqual([]);
});
