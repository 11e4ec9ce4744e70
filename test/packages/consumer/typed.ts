// A typed consumer: the client's declarations check a right input and refuse a wrong one, per use case.
import { createJesClient, type JesClient } from '@jes/client';
import { fromPath } from '@jes/client/node';

const client: JesClient = createJesClient({ baseUrl: 'http://localhost:3000', username: 'demo', password: 'secret' });

export async function solve(): Promise<number | undefined> {
  const started = await client.startJob(
    'maxcut',
    {
      num_nodes: 2,
      adj_matrix: [
        [0, 1],
        [1, 0],
      ],
    },
    { solvers: ['exact'], timeLimitSeconds: 5 },
  );
  if (started.error) return undefined;
  const output = await client.getOutput(started.data.id);
  return output.data?.outputs['exact']?.cut_value;
}

export async function upload(path: string): Promise<string | undefined> {
  const uploaded = await client.uploadDataFile({ problemId: 'maxcut', ...(await fromPath(path)) });
  return uploaded.data?.id;
}

export async function wrong(): Promise<void> {
  await client.startJob('maxcut', {
    // @ts-expect-error num_nodes is an integer, not a string: the types must refuse it
    num_nodes: '2',
    adj_matrix: [
      [0, 1],
      [1, 0],
    ],
  });
}

export async function solveQubo(): Promise<number | undefined> {
  const started = await client.startJob('qubo', {
    num_variables: 2,
    q_matrix: [
      [-1, 2],
      [0, -1],
    ],
  });
  if (started.error) return undefined;
  const output = await client.getOutput<'qubo'>(started.data.id);
  return output.data?.outputs['exact']?.energy;
}

export async function crossed(): Promise<void> {
  // @ts-expect-error a QUBO input is not a graph: the types refuse it for maxcut
  await client.startJob('maxcut', { num_variables: 1, q_matrix: [[-1]] });
  // @ts-expect-error a graph is not a QUBO input: the types refuse it for qubo
  await client.startJob('qubo', { num_nodes: 1, adj_matrix: [[0]] });
}
