// The client against the real reference server: lazy login and the one re-login, use cases, jobs inline
// with typed inputs, cancelling, paging.
import { beforeAll, describe, expect, it } from 'vitest';
import { createJesClient, isQuboOutput, type Job, type JesClient } from '../../src/index.ts';
import { forgedToken, recordingFetch, withHeader } from '../support/fetches.ts';
import { fourVariables, sixNodes } from '../support/graphs.ts';
import { type Servers, users } from '../support/processes.ts';

export function clientSuite(servers: Servers): void {
  let alice: JesClient;
  beforeAll(() => {
    alice = createJesClient({ baseUrl: servers.main, username: 'alice', password: users.alice });
  });

  describe('authentication', () => {
    it('logs in lazily, once, and sends the token with every call but login', async () => {
      const { fetch, exchanges } = recordingFetch();
      const client = createJesClient({ baseUrl: servers.main, username: 'alice', password: users.alice, fetch });
      expect(exchanges).toEqual([]);
      const [problems, health] = await Promise.all([client.listProblems(), client.health()]);
      expect(problems.error).toBeUndefined();
      expect(health.data?.status).toBe('ok');
      await client.getProblem('maxcut');
      expect(exchanges.filter((e) => e.path === '/login')).toHaveLength(1);
      expect(exchanges.find((e) => e.path === '/problem/maxcut')?.authorization).toBe(`Bearer ${client.token}`);
      expect(exchanges.find((e) => e.path === '/login')?.authorization).toBeNull();
    });

    it('answers a wrong password with the invalid_credentials problem, without throwing', async () => {
      const client = createJesClient({ baseUrl: servers.main, username: 'alice', password: 'wrong-password' });
      const result = await client.listProblems();
      expect(result.error).toMatchObject({ status: 401, code: 'invalid_credentials' });
      expect(result.response.status).toBe(401);
    });

    it('after a 401 invalid_token logs in again and retries once', async () => {
      const { fetch, exchanges } = recordingFetch();
      const client = createJesClient({
        baseUrl: servers.main,
        username: 'alice',
        password: users.alice,
        token: forgedToken,
        fetch,
      });
      const result = await client.listProblems();
      expect(result.data?.map((u) => u.id)).toContain('maxcut');
      expect(exchanges.map((e) => `${e.path} ${e.status}`)).toEqual(['/problem 401', '/login 200', '/problem 200']);
      expect(client.token).not.toBe(forgedToken);
    });

    it('never loops: a token refused again after the new login is returned as the problem', async () => {
      const { fetch, exchanges } = recordingFetch((request) =>
        request.headers.has('authorization') ? withHeader(request, 'authorization', `Bearer ${forgedToken}`) : request,
      );
      const client = createJesClient({ baseUrl: servers.main, username: 'alice', password: users.alice, fetch });
      const result = await client.getJob('K7Q2M9X4TB1R');
      expect(result.error?.code).toBe('invalid_token');
      expect(exchanges.map((e) => `${e.path} ${e.status}`)).toEqual([
        '/login 200',
        '/job/K7Q2M9X4TB1R 401',
        '/login 200',
        '/job/K7Q2M9X4TB1R 401',
      ]);
    });

    it('without credentials or a token, the call answers missing_token', async () => {
      const result = await createJesClient({ baseUrl: servers.main }).listProblems();
      expect(result.error).toMatchObject({ status: 401, code: 'missing_token' });
    });
  });

  describe('use cases', () => {
    it('lists them in order and reads one; an unknown one is problem_not_found', async () => {
      const list = await alice.listProblems();
      expect(list.data?.[0]).toMatchObject({ id: 'maxcut', max_inline_bytes: 4_194_304 });
      const maxcut = await alice.getProblem('maxcut');
      expect(maxcut.data?.solvers.map((s) => s.name)).toContain('exact');
      expect((await alice.getProblem('tsp')).error).toMatchObject({ status: 404, code: 'problem_not_found' });
    });
  });

  describe('QUBO', () => {
    it("starts the 4-variable example, waits for it and reads the minimum energy -11 (getOutput<'qubo'>)", async () => {
      expect((await alice.listProblems()).data?.map((u) => u.id)).toEqual(['maxcut', 'qubo']);
      const started = await alice.startJob('qubo', fourVariables, { solvers: ['exact'] });
      expect((await alice.waitForJob(started.data!.id)).data).toMatchObject({ status: 'FINISHED', problem_id: 'qubo' });
      const output = await alice.getOutput<'qubo'>(started.data!.id);
      expect(output.data?.outputs.exact).toMatchObject({ energy: -11, assignment: [1, 0, 0, 1], optimal: true });
      expect(isQuboOutput(output.data!.outputs.exact!)).toBe(true);
    });

    it('takes only a QUBO input for qubo and only a graph for maxcut at compile time; sent anyway, each is a 400', async () => {
      // @ts-expect-error a graph is not a QuboInput: the types refuse it for 'qubo'.
      const graph = await alice.startJob('qubo', sixNodes);
      expect(graph.error).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(graph.error?.errors).toEqual([
        { pointer: '/', detail: 'must have either num_variables and q_matrix, or data_file_identifier' },
      ]);
      // @ts-expect-error a QUBO input is not a MaxCutInput: the types refuse it for 'maxcut'.
      const qubo = await alice.startJob('maxcut', fourVariables);
      expect(qubo.error).toMatchObject({ status: 400, code: 'invalid_request' });
    });
  });

  describe('jobs', () => {
    it('starts the 6-node example inline with the chosen solvers, waits for it and reads the maximum cut 53', async () => {
      const progress: string[] = [];
      const started = await alice.startJob('maxcut', sixNodes, {
        solvers: ['exact', 'local-search'],
        timeLimitSeconds: 0.3,
      });
      expect(started.data).toEqual({ id: expect.stringMatching(/^[A-Z0-9]{12}$/), detail: 'Job created' });
      const id = started.data!.id;
      const ended = await alice.waitForJob(id, { onProgress: (job) => progress.push(job.status) });
      expect(ended.data).toMatchObject({
        id,
        status: 'FINISHED',
        input: { mode: 'inline', bytes: JSON.stringify(sixNodes).length },
      });
      expect(Object.keys(ended.data!.executions).sort()).toEqual(['exact', 'local-search']);
      expect(progress.at(-1)).toBe('FINISHED');
      const output = await alice.getOutput(id);
      expect(output.data?.outputs.exact).toMatchObject({ cut_value: 53, optimal: true });
      expect(output.data?.outputs['local-search']?.cut_value).toBe(53);
    });

    it('takes only the use case input at compile time; a mistyped one sent anyway comes back as a problem', async () => {
      // @ts-expect-error num_nodes must be a number: the contract's MaxCutInput rejects this at compile time.
      const mistyped = await alice.startJob('maxcut', { num_nodes: '6', adj_matrix: sixNodes.adj_matrix });
      expect(mistyped.error).toMatchObject({ status: 400, code: 'invalid_request' });
      // @ts-expect-error an unknown use case id is a compile error too.
      expect((await alice.startJob('tsp', sixNodes)).error?.code).toBe('problem_not_found');
      const asymmetric = await alice.startJob('maxcut', {
        num_nodes: 2,
        adj_matrix: [
          [0, 1],
          [2, 0],
        ],
      });
      expect(asymmetric.error).toMatchObject({
        status: 422,
        code: 'invalid_input',
        errors: [expect.objectContaining({ pointer: expect.any(String) })],
      });
    });

    it('sends solver parameters in a body, so such an input goes through a data file', async () => {
      const started = await alice.startJob('maxcut', sixNodes, {
        solvers: [{ name: 'local-search', params: { seed: 7 } }],
        timeLimitSeconds: 0.2,
      });
      expect(started.data?.dataFile).toMatchObject({ problem_id: 'maxcut', name: 'maxcut-input.json' });
      const ended = await alice.waitForJob(started.data!.id);
      expect(ended.data).toMatchObject({
        status: 'FINISHED',
        input: { mode: 'data_file', data_file_identifier: started.data!.dataFile!.id },
      });
      expect(Object.keys(ended.data!.executions)).toEqual(['local-search']);
    });

    it('cancels a running job; its output before the end is job_not_finished, a second cancel job_already_terminal', async () => {
      const id = (await alice.startJob('maxcut', sixNodes, { solvers: ['local-search'], timeLimitSeconds: 30 })).data!
        .id;
      expect((await alice.getOutput(id)).error).toMatchObject({ status: 409, code: 'job_not_finished' });
      const cancel = await alice.cancelJob(id);
      expect(cancel.data).toMatchObject({ id, cancel_requested_at: expect.any(String) });
      const ended = await alice.waitForJob(id);
      expect(ended.data?.status).toBe('CANCELLED');
      expect((await alice.cancelJob(id)).error).toMatchObject({ status: 409, code: 'job_already_terminal' });
      expect((await alice.getJob('ZZZZZZZZZZZZ')).error).toMatchObject({ status: 404, code: 'job_not_found' });
    });

    it('deletes an ended job (then 404 job_not_found); a job still running is job_not_finished', async () => {
      const running = (await alice.startJob('maxcut', sixNodes, { solvers: ['local-search'], timeLimitSeconds: 30 }))
        .data!.id;
      expect((await alice.deleteJob(running)).error).toMatchObject({ status: 409, code: 'job_not_finished' });
      await alice.cancelJob(running);
      await alice.waitForJob(running);
      expect((await alice.deleteJob(running)).data).toEqual({ deleted: running });
      expect((await alice.getJob(running)).error).toMatchObject({ status: 404, code: 'job_not_found' });
      expect((await alice.deleteJob(running)).error).toMatchObject({ status: 404, code: 'job_not_found' });
    });

    it('lists jobs newest first, page after page', async () => {
      const bob = createJesClient({ baseUrl: servers.main, username: 'bob', password: users.bob });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.unshift((await bob.startJob('maxcut', sixNodes, { solvers: ['exact'] })).data!.id);
      const pages: Job[][] = [];
      for await (const page of bob.listJobs({ limit: 2 })) pages.push(page.data!.items);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat().map((job) => job.id)).toEqual(ids);
      // Resumed after a page's last job, as the page's link would: the rest, in the same order.
      const rest: string[] = [];
      for await (const page of bob.listJobs({ limit: 2, startingAfter: ids[1]! }))
        rest.push(...page.data!.items.map((j) => j.id));
      expect(rest).toEqual(ids.slice(2));
      const finished: string[] = [];
      for await (const page of bob.listJobs({ status: 'CANCELLED' }))
        finished.push(...page.data!.items.map((j) => j.id));
      expect(finished).toEqual([]);
    });
  });
}
