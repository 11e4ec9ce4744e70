// Where jes-server listens, and what it says about it: HOST (127.0.0.1 unless set; it listened on every
// interface and printed http://localhost:3000), the URL it prints for the address really listened on, and a
// port in use said in one line before the database opens (a raw EADDRINUSE stack came after a 7 s start).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, runChild, serveChild } from './support/child-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'jes-listen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An address of this machine other than the loopback, to try from "outside" (none in some sandboxes). */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
const noOutside = outside ? '' : ' (skipped: this machine has no IPv4 address but the loopback)';

/** Whether an HTTP server answers at `host`:`port` (false when the connection is refused). */
async function answers(host: string, port: number): Promise<boolean> {
  try {
    return (await fetch(`http://${host}:${port}/healthz`)).ok;
  } catch {
    return false;
  }
}

async function serve(env: Record<string, string>): Promise<ChildServer> {
  return serveChild({ JES_DATA_DIR: 'memory:', JES_WORKERS: '0', ...env });
}

describe('HOST', () => {
  it('regression: by default the server listens on 127.0.0.1 alone and prints that address, not localhost on every interface', async () => {
    const server = await serve({});
    try {
      const port = Number(new URL(server.url).port);
      await server.printed(/^Dashboard at /m);
      const base = `http://127.0.0.1:${port}`;
      expect(server.output()).toContain(
        `jes server listening on ${base} (this machine only; HOST=0.0.0.0 listens on every interface)\n` +
          `API reference at ${base}/docs, contract at ${base}/openapi.yaml\n` +
          `Dashboard at ${base}/app\n`,
      );
      expect(await answers('127.0.0.1', port)).toBe(true);
      expect(await answers('localhost', port), 'what the README and the jes command use by default').toBe(true);
      if (outside) expect(await answers(outside, port)).toBe(false);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it(`HOST=0.0.0.0 listens on every interface, says so, and prints a URL that opens${noOutside}`, async () => {
    const server = await serve({ HOST: '0.0.0.0' });
    try {
      const port = Number(new URL(server.url).port);
      await server.printed(/^Dashboard at /m);
      expect(server.output()).toContain(
        `jes server listening on http://127.0.0.1:${port} (on every interface: 0.0.0.0, port ${port})\n`,
      );
      expect(await answers('127.0.0.1', port)).toBe(true);
      if (outside) expect(await answers(outside, port)).toBe(true);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('an IPv6 address is printed in brackets', async () => {
    const server = await serve({ HOST: '::1' });
    try {
      const port = Number(new URL(server.url).port);
      expect(server.url).toBe(`http://[::1]:${port}`);
      expect(await answers('[::1]', port)).toBe(true);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('an address that is not this machine’s stops start-up with one line', async () => {
    const run = await runChild({ JES_DATA_DIR: 'memory:', HOST: '192.0.2.123' });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toBe(
      'jes-server: HOST 192.0.2.123 is no address of this machine; set HOST to one of its addresses, or 0.0.0.0 for every interface\n',
    );
  }, 60_000);
});

describe('PORT in use', () => {
  it('regression: stops jes-server with one line, before the database opens (a raw EADDRINUSE stack came after its start)', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const folder = join(dir, 'data');
    try {
      const run = await runChild({ PORT: String(port), JES_DATA_DIR: folder });
      expect(run).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr).toBe(
        `jes-server: port ${port} on 127.0.0.1 is in use (by another jes server?); stop it or set PORT\n`,
      );
      // Nothing of a database was made, and the folder's lock is not left behind.
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
