// The Prism column of the API benchmark: the stock Prism mock (bench/prism-mock.ts) in a child process, loaded on
// GET /job/{id} with the same autocannon settings as the jes server (the measuring function is the caller's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from './client.ts';
import { node } from '../../test/support/child-server.ts';
import { startProcess } from './processes.ts';
import { root } from './settings.ts';

export interface PrismGet<Load> {
  load: Load;
  /** The size of Prism's answer: the contract's first 200 example of getJob (a FINISHED job). */
  bytes: number;
  /** @stoplight/prism-http's version. */
  version: string;
}

// A job id of the contract's shape; Prism checks the shape, not that the job exists. Its bearer check is that a
// token is present (Prism verifies no signature), so any token in the right scheme passes.
const path = '/job/K7Q2M9X4TB1R';
const headers = { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.bench-signature' };

export async function measurePrismGet<Load>(
  measure: (url: string, headers: Record<string, string>, pid: number | undefined) => Promise<Load>,
): Promise<PrismGet<Load>> {
  const prism = await startProcess('prism mock', node('bench/prism-mock.ts'));
  try {
    const sample = await send(prism.url, 'GET', path, { headers });
    if (sample.status !== 200) throw new Error(`Prism GET ${path}: ${sample.status} ${sample.body}`);
    const pkg = join(root, 'node_modules', '@stoplight', 'prism-http', 'package.json');
    return {
      load: await measure(`${prism.url}${path}`, headers, prism.child.pid),
      bytes: sample.body.length,
      version: (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version,
    };
  } finally {
    await prism.stop();
  }
}
