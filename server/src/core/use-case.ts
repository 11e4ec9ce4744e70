// The use-case interface: everything the routes, the store, the worker loop, the pool and the solver thread
// need of a use case, so that none of them knows one by name (graphile-worker's `tasks[identifier]`: the loop
// knows no task). A use case is a folder exporting one UseCase; use-cases.ts lists them.
//
// An input is parsed once: when an inline job is accepted (checkInline) or when a data file is validated
// (readDataFile). What that produced is stored encoded (encode), or an inline job's JSON text when that is smaller
// (then the worker checks and prepares it with checkInline); the worker has the input once per job for all its executions, and
// the solver threads receive it by structured clone.
import type { components } from '@jes/contract';
import type { SolveOptions, SolverInfo } from './solver.ts';

export type UseCaseRecord = components['schemas']['UseCase'];

/** An input's size: DataFile's `num_nodes` and `num_edges`, and what a solver's `maxNodes` is compared with. */
export interface InputSize {
  /** Nodes of a graph, variables of a quadratic form: the use case's unit. */
  nodes: number;
  /** Non-zero edges, or non-zero couplings between two variables. */
  edges: number;
}

/** Which way a use case's objective improves. */
export type Sense = 'max' | 'min';

/** What a solver returns: the contract's output (`data`) and its objective (`best_value`). */
export interface SolverOutput {
  data: Record<string, unknown>;
  objective: number;
}

/** An inline input every check has passed, not prepared yet: enough to choose what a job stores. */
export interface CheckedInline<Input> {
  size: InputSize;
  /** encodedBytes of the prepared input, known without preparing it. */
  encodedBytes: number;
  /** Builds the prepared input. */
  prepare(): Input;
}

export interface UseCaseSolver<Input> extends SolverInfo {
  /** Runs in a solver thread; throws SolverLimitError for an input beyond its limits. */
  solve(input: Input, options: SolveOptions): SolverOutput;
}

export interface UseCase<Input = unknown> {
  /** The `problem_id`. */
  id: string;
  /** Whether a better answer has a larger objective (`max`, a cut) or a smaller one (`min`, an energy). */
  sense: Sense;
  /** GET /problem/{problem_id}: the record, solvers included (built from `solvers`). */
  record: UseCaseRecord;
  /** An inline body must be smaller than this many bytes (the record's `max_inline_bytes`). */
  maxInlineBytes: number;
  /** A data file may have at most this many bytes (the record's `max_data_file_bytes`). */
  maxDataFileBytes: number;
  /**
   * An inline body the contract validator has accepted for this use case: the checks the schema cannot express
   * (InputError with pointers into the body), and what the input prepares into, built only when `prepare()` is
   * called (a job that stores the JSON text, smaller than a dense matrix's prepared form, never needs it).
   */
  checkInline(body: unknown): CheckedInline<Input>;
  /** A data file's bytes, chunk by chunk: its format and prepared input, or InputError with pointers into it. */
  readDataFile(chunks: AsyncIterable<Uint8Array>): Promise<{ format: string; input: Input }>;
  size(input: Input): InputSize;
  /** The prepared input as bytes, to store; decode(encode(x)) gives x back. */
  encode(input: Input): Uint8Array;
  /** The length encode gives, without encoding (to choose what to store without building it). */
  encodedBytes(input: Input): number;
  decode(bytes: Uint8Array): Input;
  /** The prepared input written out again in the inline shape, for getJobInput: the same problem as the one sent. */
  inline(input: Input): unknown;
  /** Registered per use case: two use cases may both have an `exact`. */
  solvers: readonly UseCaseSolver<Input>[];
  /** The solvers run when the caller chooses none; the size is unknown while a data file is being validated. */
  defaultSolvers(size: InputSize | undefined): string[];
}
