import { createJesClient, formatProblem } from '@jes/client';

// The line a first `npm start` prints sets JES_USERNAME and JES_PASSWORD.
const jes = createJesClient({
  baseUrl: process.env.JES_BASE_URL ?? 'http://localhost:3000',
  username: process.env.JES_USERNAME,
  password: process.env.JES_PASSWORD,
});

// The contract's 6-node example: its maximum cut is 53.
const started = await jes.startJob(
  'maxcut',
  {
    num_nodes: 6,
    adj_matrix: [
      [0, 3, 6, 7, 3, 0],
      [3, 0, 4, 5, 8, 9],
      [6, 4, 0, 6, 5, 7],
      [7, 5, 6, 0, 8, 0],
      [3, 8, 5, 8, 0, 0],
      [0, 9, 7, 0, 0, 0],
    ],
  },
  { solvers: ['exact'] },
);
if (started.error) throw new Error(formatProblem(started.error));

const ended = await jes.waitForJob(started.data.id, {
  onProgress: (job) => console.log(`job ${job.id}: ${job.status}`),
});
if (ended.error) throw new Error(formatProblem(ended.error));

const output = await jes.getOutput(started.data.id);
if (output.error) throw new Error(formatProblem(output.error));
console.log(`maximum cut: ${output.data.outputs.exact?.cut_value}`);
