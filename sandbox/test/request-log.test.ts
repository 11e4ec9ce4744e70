// What `npm run sandbox` prints per request (issue 13: only `GET /job/… → 404`): the request, then whether it
// keeps the contract (✔ valid request, or ✖ and each mismatch, or why it was refused) and what was answered,
// with the contract example by name. Run as a user runs it: the command, on a free port, read from its stdout.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChildServer, node, sandboxCli, startChild } from '../../test/support/child-server.ts';

let sandbox: ChildServer;

// The URL, and the line after it: what follows is the requests'.
beforeAll(
  async () =>
    (sandbox = await startChild(node(sandboxCli, '-p', '0', '--stateless'), {
      ready: /listening on (http:\/\/\S+)\n.*\n/,
    })),
);
afterAll(() => sandbox?.stop());

/** Sends a request, then the two lines the sandbox printed for it (it prints them once it has answered). */
async function logged(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<string[]> {
  const from = sandbox.output().length;
  await (await fetch(sandbox.url + path, { method, ...init })).arrayBuffer();
  const since = () => sandbox.output().slice(from).split('\n');
  for (let i = 0; i < 500 && since().length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  return since().slice(0, 2);
}

const bearer = { authorization: 'Bearer anything' };
const json = { ...bearer, 'content-type': 'application/json' };
const at = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

it('a valid request: ✔, the status and the example answered', async () => {
  const [request, verdict] = await logged('GET', '/job/K7Q2M9X4TB1R', {
    headers: { ...bearer, prefer: 'example=pending' },
  });
  expect(request).toMatch(new RegExp(`^${at} GET /job/K7Q2M9X4TB1R$`));
  expect(verdict).toBe('  ✔ valid request → 200 (example "pending")');
});

it('a request at odds with the contract: ✖ and the pointer of each mismatch', async () => {
  const [request, verdict] = await logged('POST', '/problem/maxcut', {
    headers: json,
    body: '{"num_nodes": "6", "adj_matrix": [[0]]}',
  });
  expect(request).toMatch(new RegExp(`^${at} POST /problem/maxcut$`));
  expect(verdict).toBe('  ✖ request violates the contract: /num_nodes must be integer → 400 invalid_request');
});

it('a request refused before its body is looked at: ✖ and why', async () => {
  expect((await logged('GET', '/job'))[1]).toBe(
    '  ✖ This operation needs an Authorization: Bearer <access_token> header; get a token with POST /login. → 401 missing_token',
  );
  expect((await logged('GET', '/problem/MaxCut', { headers: bearer }))[1]).toBe(
    '  ✖ Use case "MaxCut" does not exist; the use cases are: maxcut, qubo. → 404 problem_not_found',
  );
  expect((await logged('PUT', '/job', { headers: bearer }))[1]).toBe(
    '  ✖ PUT is not supported on /job; use GET. → 405 method_not_allowed',
  );
});

it('a documented error asked for with Prefer: a valid request, and the example answered', async () => {
  expect((await logged('GET', '/job/K7Q2M9X4TB1R', { headers: { ...bearer, prefer: 'code=404' } }))[1]).toBe(
    '  ✔ valid request → 404 job_not_found (example "job_not_found")',
  );
});
