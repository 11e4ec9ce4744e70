// `npm start` (until the reference server exists) serves the reference and the contract over HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPath, root } from '../../scripts/generated.ts';

describe('scripts/serve-docs.ts', () => {
  let child: ChildProcess;
  let base: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [join(root, 'scripts/serve-docs.ts')], { env: { ...process.env, PORT: '0' } });
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    base = /http:\/\/[\d.]+:\d+/.exec(line.toString())![0];
  });

  afterAll(async () => {
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('serves docs/index.html at /', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe(await readFile(join(root, 'docs/index.html'), 'utf8'));
  });

  it('serves the contract at /openapi.yaml', async () => {
    const res = await fetch(`${base}/openapi.yaml`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await readFile(contractPath, 'utf8'));
  });

  it('answers 404 elsewhere', async () => {
    expect((await fetch(`${base}/job/K7Q2M9X4TB1R`)).status).toBe(404);
  });
});
