// Setup for every test file: no request may have produced a 5xx (a server error is a bug, whatever the test).
import { afterAll, expect } from 'vitest';
import { serverErrors } from './server-errors.ts';

afterAll(() => {
  expect(serverErrors, 'responses with a 5xx status').toEqual([]);
});
