// Against the sandbox with @jes/client (run from the repository root: node --conditions=jes-source sandbox/examples/client.ts).
import { createJesClient } from '@jes/client';

const client = createJesClient({
  baseUrl: process.env.JES_BASE_URL ?? 'http://localhost:4010',
  username: 'anyone',
  password: 'anything',
});

const started = await client.startJob(
  'maxcut',
  {
    num_nodes: 3,
    adj_matrix: [
      [0, 1, 2],
      [1, 0, 3],
      [2, 3, 0],
    ],
  },
  { solvers: ['exact'] },
);
console.log('started', started.data?.id);
const job = await client.waitForJob(started.data!.id);
console.log('status', job.data?.status);
const output = await client.getOutput(job.data!.id);
console.log('cut', output.data?.outputs.exact?.cut_value);

// The documented alternatives through the typed openapi-fetch client underneath: a PENDING job, a 404.
const pending = await client.api.GET('/job/{job_id}', {
  params: { path: { job_id: 'K7Q2M9X4TB1R' }, header: { Prefer: 'example=pending' } },
});
console.log('pending', Object.values(pending.data!.job)[0]?.status);
const missing = await client.api.GET('/job/{job_id}', {
  params: { path: { job_id: 'K7Q2M9X4TB1R' }, header: { Prefer: 'code=404' } },
});
console.log('missing', missing.response.status, missing.error?.code);
