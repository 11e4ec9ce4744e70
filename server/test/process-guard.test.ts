// No request can end the process (issue 10). A truncated multipart upload used to end jes-server ("Unexpected
// end of form", an unhandled rejection of the storing promise); now it is a 400 and the server goes on. And the
// guard jes-server installs answers and logs any failure that escapes a request, with the request's id.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, node, serverCli, startChild } from '../../test/support/child-server.ts';
import { expectProblem } from './support/problems.ts';
import { rawRequest } from './support/raw-http.ts';
import { Client, testEnv, users } from './support/server.ts';

const children: ChildServer[] = [];
afterAll(() => Promise.all(children.map((child) => child.kill())));

/** Starts `script` as a child process with `env`; resolves once it prints its URL. */
async function launch(script: string, env: NodeJS.ProcessEnv = {}): Promise<ChildServer> {
  const child = await startChild(node(script), { env });
  children.push(child);
  return child;
}

describe('jes-server survives a hostile upload', () => {
  it('answers a multipart form with no closing boundary with 400 and keeps serving', async () => {
    const { child, url, output } = await launch(serverCli, testEnv({ LOG_LEVEL: 'warn', JES_WORKERS: '1' }));
    const alice = await new Client(url).login('alice', users.alice);
    const truncated = '--B\r\nContent-Disposition: form-data; name="file"; filename="g.txt"\r\n\r\n2 1\n1 2 3\n';
    for (let i = 0; i < 3; i++) {
      const reply = await alice.request('POST', '/data_file', {
        body: truncated,
        headers: { 'content-type': 'multipart/form-data; boundary=B' },
      });
      expectProblem(reply, 400, 'invalid_request');
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(child.exitCode, output()).toBeNull();
    expect((await alice.get('/healthz')).status).toBe(200);
    expect(
      (
        await alice.waitFor(
          await alice.start({
            num_nodes: 2,
            adj_matrix: [
              [0, 1],
              [1, 0],
            ],
          }),
        )
      ).status,
    ).toBe('FINISHED');
  });
});

describe('the process guard', () => {
  it('answers a request whose failure escaped Express with 500 internal_error, logs it with the request id, and keeps serving', async () => {
    const { child, url, output, printed } = await launch(join(import.meta.dirname, 'support', 'escaping-app.ts'));
    for (const path of ['/rejection', '/exception']) {
      const reply = await rawRequest(url, {
        method: 'GET',
        path,
        headers: { 'x-request-id': `escape-${path.slice(1)}` },
      });
      expectProblem(reply, 500, 'internal_error');
      expect(reply.body.request_id).toBe(`escape-${path.slice(1)}`);
    }
    expect((await rawRequest(url, { method: 'GET', path: '/healthz' })).status).toBe(200);
    expect(child.exitCode).toBeNull();
    // The answer can come before its log line has reached us through the child's stdout: wait for both lines.
    for (const id of ['escape-rejection', 'escape-exception']) await printed(new RegExp(`"reqId":"${id}"`));
    const logged = output()
      .split('\n')
      .filter((line) => line.includes('"level":50'))
      .map((line) => JSON.parse(line));
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          reqId: 'escape-rejection',
          err: expect.objectContaining({ message: 'a rejection nobody awaited' }),
        }),
        expect.objectContaining({
          reqId: 'escape-exception',
          err: expect.objectContaining({ message: 'an exception thrown from a timer' }),
        }),
      ]),
    );
  });
});
