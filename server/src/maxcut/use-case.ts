// The max-cut use case as data (GET /problem/maxcut): its schemas come from the contract, its solvers from
// the solver registry.
import { contract } from '../contract.ts';
import type { components } from '../generated/openapi.ts';
import { solvers } from '../solvers/index.ts';

export const maxInlineBytes = 4 * 1024 * 1024;
export const maxDataFileBytes = 100 * 1024 * 1024;

type UseCase = components['schemas']['UseCase'];

function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== 'description')
      .map(([k, v]) => [k, withoutDescriptions(v)]),
  );
}

function buildMaxcut(): UseCase {
  const schema = (name: string) => ({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(withoutDescriptions(contract.components.schemas[name]) as object),
  });
  return {
    id: 'maxcut',
    name: 'Maximum cut',
    description:
      'Split the nodes of a weighted undirected graph into two parts so that the total weight of the edges between the parts is as large as possible.',
    input_schema: schema('MaxCutInput'),
    output_schema: schema('MaxCutOutput'),
    max_inline_bytes: maxInlineBytes,
    max_data_file_bytes: maxDataFileBytes,
    data_file_formats: ['json', 'edge_list'],
    solvers: solvers.map((s) => ({
      name: s.name,
      description: s.description,
      exact: s.exact,
      default: s.default,
      default_time_limit_seconds: s.defaultTimeLimitSeconds,
      ...(s.maxNodes !== undefined ? { max_nodes: s.maxNodes } : {}),
    })),
    example_input: contract.components.examples.MaxCutInput!.value as UseCase['example_input'],
  };
}

/** The use cases this server runs, by id. */
export const useCases: ReadonlyMap<string, UseCase> = new Map([['maxcut', buildMaxcut()]]);
