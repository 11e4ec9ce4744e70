// Setup for every test file: no request may have produced a 5xx (a server error is a bug, whatever the test).
import { afterAll, expect } from 'vitest';
import { Client } from './server.ts';

afterAll(() => {
  expect(Client.serverErrors, 'responses with a 5xx status').toEqual([]);
});
