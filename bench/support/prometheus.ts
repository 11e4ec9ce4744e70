// Reading a process's Prometheus text (`GET /metrics`, text format 0.0.4): the sum of a metric's samples over its label
// sets, which is all the benchmarks need (bench:scale: the statements each process sent to its database).
import { send } from './client.ts';

/** Σ of every sample named exactly `name` (any labels); undefined when the text has none. */
export function sumSamples(text: string, name: string): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{.*\})?\s+(\S+)/.exec(line);
    if (sample?.[1] !== name) continue;
    const value = Number(sample[2]);
    if (Number.isFinite(value)) sum = (sum ?? 0) + value;
  }
  return sum;
}

/** The process's metrics text at `url` (a loopback /metrics), or undefined when it answers otherwise than 200. */
export async function scrape(url: string): Promise<string | undefined> {
  const { origin, pathname } = new URL(url);
  try {
    const reply = await send(origin, 'GET', pathname);
    return reply.status === 200 ? reply.body.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}
