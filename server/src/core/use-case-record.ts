// A use case's record as GET /problem/{problem_id} serves it: its schemas and example come from the contract
// (descriptions dropped: the reference has them), its solvers from the use case's own registry. The contract is read
// when a record is built, not when this module loads: the solver and validation threads load the use cases and never
// serve a record (each parsed openapi.yaml for nothing, 0.2–0.4 s of a core per thread).
import { carriedContract } from '@jes/contract/node';
import type { SolverInfo } from './solver.ts';
import type { UseCaseRecord } from './use-case.ts';

function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== 'description')
      .map(([k, v]) => [k, withoutDescriptions(v)]),
  );
}

/** A schema of the contract's components, standalone (JSON Schema 2020-12). */
function standalone(name: string): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(withoutDescriptions(carriedContract().components.schemas[name]) as object),
  };
}

export interface RecordParts {
  id: string;
  name: string;
  description: string;
  /** The names of the contract's schemas of the input and the output. */
  inputSchema: string;
  outputSchema: string;
  /** The contract's example of the inline input (components.examples). */
  example: string;
  maxInlineBytes: number;
  maxDataFileBytes: number;
  /** The largest input in the use case's unit (nodes, variables), whatever its form. */
  maxNodes: number;
  dataFileFormats: UseCaseRecord['data_file_formats'];
  solvers: readonly SolverInfo[];
}

/** The reader of `parts`' record, built at its first read (so a thread that never serves it reads no contract). */
export function useCaseRecord(parts: RecordParts): () => UseCaseRecord {
  let record: UseCaseRecord | undefined;
  return () => (record ??= build(parts));
}

function build(parts: RecordParts): UseCaseRecord {
  return {
    id: parts.id,
    name: parts.name,
    description: parts.description,
    input_schema: standalone(parts.inputSchema),
    output_schema: standalone(parts.outputSchema),
    max_inline_bytes: parts.maxInlineBytes,
    max_data_file_bytes: parts.maxDataFileBytes,
    max_nodes: parts.maxNodes,
    data_file_formats: parts.dataFileFormats,
    solvers: parts.solvers.map((s) => ({
      name: s.name,
      description: s.description,
      exact: s.exact,
      default: s.default,
      default_time_limit_seconds: s.defaultTimeLimitSeconds,
      ...(s.maxNodes !== undefined ? { max_nodes: s.maxNodes } : {}),
    })),
    example_input: carriedContract().components.examples[parts.example]!.value as UseCaseRecord['example_input'],
  };
}
