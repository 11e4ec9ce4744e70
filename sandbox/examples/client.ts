// Against the sandbox with @jes/client (run from the repository root: node --conditions=jes-source sandbox/examples/client.ts).
import { createJesClient } from '@jes/client';

const baseUrl = process.env.JES_BASE_URL ?? 'http://localhost:4010';
const client = createJesClient({ baseUrl, username: 'anyone', password: 'anything' });

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
console.log('cut', output.data?.outputs.exact?.cut_value, 'optimal', output.data?.outputs.exact?.optimal);

// Another user does not see the job; an id nobody made does not exist (the typed openapi-fetch client underneath).
const other = createJesClient({ baseUrl, username: 'someone-else', password: 'whatever' });
const hidden = await other.getJob(started.data!.id);
console.log('another user', hidden.response.status, hidden.error?.code);
const missing = await client.api.GET('/job/{job_id}', { params: { path: { job_id: 'AAAAAAAAAAAA' } } });
console.log('missing', missing.response.status, missing.error?.code);
