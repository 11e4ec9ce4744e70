// A page's script: log in to the server named by ?api=, solve the 6-node example, show the cut (or the problem).
import { createJesClient, formatProblem } from '@jes/client';
import input from './six-node.json' with { type: 'json' };

const show = (id, text) => (document.getElementById(id).textContent = text);
const query = new URLSearchParams(location.search);
const client = createJesClient({
  baseUrl: query.get('api'),
  username: query.get('username'),
  password: query.get('password'),
});

async function run() {
  const started = await client.startJob('maxcut', input, { solvers: ['exact'] });
  if (started.error) return show('problem', formatProblem(started.error));
  show('job', started.data.id);
  const finished = await client.waitForJob(started.data.id);
  if (finished.error) return show('problem', formatProblem(finished.error));
  const output = await client.getOutput(started.data.id);
  if (output.error) return show('problem', formatProblem(output.error));
  show('cut', String(output.data.outputs.exact.cut_value));
}
run().catch((error) => show('problem', `thrown: ${error}`));
