// The log as its reader needs it: JSON lines into a pipe (a collector), human lines on a terminal (the
// terminal of `npm start` showed raw pino JSON with epoch times); JES_LOG_FORMAT forces either.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type ChildServer, noTerminal, serveChild } from './support/child-server.ts';

async function withServer(
  env: Record<string, string>,
  terminal: boolean,
  test: (server: ChildServer) => Promise<void>,
) {
  const server = await serveChild(
    { JES_DATA_DIR: 'memory:', JES_WORKERS: '0', LOG_LEVEL: 'info', ...env },
    { terminal },
  );
  try {
    await fetch(`${server.url}/healthz`);
    await test(server);
  } finally {
    await server.stop();
  }
}

const prettyReady = /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: database ready in \d+\.\d s: an in-memory embedded database\r?$/m;
const prettyRequest = /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/healthz 200 \d+ ms \(request [0-9a-f-]{36}\)\r?$/m;

describe('the log', () => {
  it('is JSON lines when stdout is a pipe', async () => {
    await withServer({}, false, async (server) => {
      const line = (await server.printed(/^\{.*"msg":"request".*\}$/m))[0];
      expect(JSON.parse(line)).toMatchObject({
        level: 30,
        time: expect.any(Number),
        reqId: expect.any(String),
        method: 'GET',
        url: '/healthz',
        status: 200,
      });
      const ready = JSON.parse(/^\{.*"msg":"database ready.*\}$/m.exec(server.output())![0]);
      expect(ready).toMatchObject({
        level: 30,
        msg: expect.stringMatching(/^database ready in \d+\.\d s: an in-memory embedded database$/),
      });
    });
  }, 60_000);

  it('is human lines with JES_LOG_FORMAT=pretty, even into a pipe: local time, level, message; a request as its method, path and status', async () => {
    await withServer({ JES_LOG_FORMAT: 'pretty' }, false, async (server) => {
      await server.printed(prettyRequest);
      expect(stripVTControlCharacters(server.output())).toMatch(prettyReady);
      expect(server.output()).not.toMatch(/^\{/m);
    });
  }, 60_000);

  it.skipIf(noTerminal())(
    `is human lines when stdout is a terminal, as under npm start${noTerminal()}`,
    async () => {
      await withServer({}, true, async (server) => {
        await server.printed(prettyRequest);
        expect(stripVTControlCharacters(server.output())).toMatch(prettyReady);
        expect(server.output()).not.toMatch(/"msg":/);
      });
    },
    60_000,
  );

  it.skipIf(noTerminal())(
    `is JSON on a terminal too with JES_LOG_FORMAT=json${noTerminal()}`,
    async () => {
      await withServer({ JES_LOG_FORMAT: 'json' }, true, async (server) => {
        const line = (await server.printed(/^\{.*"msg":"request".*\}\r?$/m))[0];
        expect(JSON.parse(line)).toMatchObject({ level: 30, url: '/healthz', status: 200 });
      });
    },
    60_000,
  );
});
