// Solves the 6-node example on the server at JES_BASE_URL and prints the maximum cut.
import { readFileSync } from 'node:fs';
import { createJesClient, formatProblem } from '@jes/client';

const client = createJesClient({
  baseUrl: process.env.JES_BASE_URL,
  username: process.env.JES_USERNAME,
  password: process.env.JES_PASSWORD,
});
const input = JSON.parse(readFileSync(new URL('./six-node.json', import.meta.url), 'utf8'));
const started = await client.startJob('maxcut', input, { solvers: ['exact'] });
if (started.error) throw new Error(formatProblem(started.error));
const finished = await client.waitForJob(started.data.id);
if (finished.error) throw new Error(formatProblem(finished.error));
const output = await client.getOutput(started.data.id);
if (output.error) throw new Error(formatProblem(output.error));
console.log(`cut ${output.data.outputs.exact.cut_value}`);
