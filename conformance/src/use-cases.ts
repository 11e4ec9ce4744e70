// The use cases a deployment lists (GET /problem), as the use-case generic checks run them: each one's id,
// solvers (which is exact, which heuristic to run), example input and data-file formats, all from its record.
import type { CheckContext } from './context.ts';
import { CheckAbort } from './http.ts';

export interface SolverInfo {
  name: string;
  exact: boolean;
  default: boolean;
  max_nodes?: number;
}

export interface UseCaseInfo {
  id: string;
  solvers: SolverInfo[];
  /** A solver that proves optimality, if the deployment has one. */
  exact: SolverInfo | undefined;
  /** The heuristic to run (a default one if any): it runs on any size until its time limit. */
  heuristic: SolverInfo;
  /** The record's example_input: a small valid input. */
  example: Record<string, unknown>;
  /** The record's data_file_formats (`json` is one for every use case). */
  formats: string[];
  /** The whole record, as GET /problem lists it. */
  record: Record<string, unknown>;
}

/** Reads GET /problem: every listed use case, in the order of `ids` (stops the check when there is none). */
export async function readUseCases(ctx: CheckContext): Promise<UseCaseInfo[]> {
  const reply = ctx.require(await ctx.send({ method: 'GET', path: '/problem' }), 200, 'listing the use cases');
  const records = (reply.json?.problem ?? {}) as Record<string, any>;
  const ids: string[] = Array.isArray(reply.json?.ids) ? reply.json.ids : Object.keys(records);
  if (!ids.length) throw new CheckAbort('GET /problem lists no use case', reply.exchange);
  return ids.map((id) => {
    const record = records[id];
    const solvers = (record?.solvers ?? []) as SolverInfo[];
    const heuristic = solvers.find((s) => !s.exact && s.default) ?? solvers.find((s) => !s.exact);
    if (!heuristic)
      throw new CheckAbort(`the ${id} use case lists no heuristic solver (one that is not exact)`, reply.exchange);
    const example = record?.example_input;
    if (!example || typeof example !== 'object')
      throw new CheckAbort(`the ${id} use case has no example_input`, reply.exchange);
    return {
      id,
      solvers,
      exact: solvers.find((s) => s.exact),
      heuristic,
      example,
      formats: Array.isArray(record.data_file_formats) ? record.data_file_formats : [],
      record,
    };
  });
}

/** The solvers whose size limit admits an input of `size` (every solver when the size is unknown). */
export function solversFor(useCase: UseCaseInfo, size: number | undefined): string[] {
  return useCase.solvers.filter((s) => size === undefined || (s.max_nodes ?? Infinity) >= size).map((s) => s.name);
}
