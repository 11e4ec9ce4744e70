// The stock Prism mock (bench/prism-mock.ts) in a child process, the reference the API and sandbox benchmarks put
// jes beside: loaded with the same autocannon settings as the jes server or the sandbox (the measuring function is
// the caller's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from './client.ts';
import { type ChildServer, node } from '../../test/support/child-server.ts';
import { startProcess } from './processes.ts';
import { root } from './settings.ts';

export interface PrismGet<Load> {
  load: Load;
  /** The size of Prism's answer: the contract's first 200 example of getJob (a FINISHED job). */
  bytes: number;
  /** @stoplight/prism-http's version. */
  version: string;
}

/** A job id of the contract's shape (its example); Prism checks the shape, not that the job exists. */
export const exampleJobPath = '/job/K7Q2M9X4TB1R';
/**
 * Prism's bearer check is that a token is present (Prism verifies no signature), so any token in the right scheme
 * passes; the stateless sandbox takes any well-formed one too.
 */
export const anyBearer = { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.bench-signature' };

export const startPrism = (): Promise<ChildServer> => startProcess('prism mock', node('bench/prism-mock.ts'));

/** @stoplight/prism-http's version, as installed. */
export function prismVersion(): string {
  const pkg = join(root, 'node_modules', '@stoplight', 'prism-http', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

export async function measurePrismGet<Load>(
  measure: (url: string, headers: Record<string, string>, pid: number | undefined) => Promise<Load>,
): Promise<PrismGet<Load>> {
  const prism = await startPrism();
  try {
    const sample = await send(prism.url, 'GET', exampleJobPath, { headers: anyBearer });
    if (sample.status !== 200) throw new Error(`Prism GET ${exampleJobPath}: ${sample.status} ${sample.body}`);
    return {
      load: await measure(`${prism.url}${exampleJobPath}`, anyBearer, prism.child.pid),
      bytes: sample.body.length,
      version: prismVersion(),
    };
  } finally {
    await prism.stop();
  }
}
