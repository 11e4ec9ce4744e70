// The suite's generators and reference computations on their own: values generated from a schema satisfy
// it, mutants break it, graphs are symmetric, enumeration finds known optima, timestamps parse as UTC.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Contract } from '../src/contract/contract.ts';
import { graphArbitrary } from '../src/generate/graphs.ts';
import { mutantArbitrary } from '../src/generate/mutations.ts';
import { arbitraryOf } from '../src/generate/schema-arbitrary.ts';
import { cutValue } from '@jes/contract';
import { bruteForceMaxCut, edgeList, graphOf } from '../src/maxcut.ts';
import { jobTimestampProblems, parseTimestamp } from '../src/timestamps.ts';

const contract = new Contract();

describe('generation from the contract', () => {
  it.each([
    'DataFileJobRequest',
    'LoginRequest',
    'DataFileUpload',
    'SolverChoice',
    'ProblemId',
    'JobId',
    'TimeLimitSeconds',
  ])('values of %s satisfy it', (name) => {
    const schema = contract.schema(name);
    for (const value of fc.sample(arbitraryOf(contract, schema), { seed: 1, numRuns: 200 }))
      expect(contract.validate(schema, value)).toEqual([]);
  });

  it('values of every query parameter of listJobs satisfy their schemas', () => {
    for (const parameter of contract.byId('listJobs').parameters) {
      for (const value of fc.sample(arbitraryOf(contract, parameter.schema), { seed: 2, numRuns: 100 }))
        expect(contract.validate(parameter.schema, value)).toEqual([]);
    }
  });

  it('mutants of valid job bodies are refused by the schema, and say what was changed', () => {
    const schema = contract.requestSchema('startJob');
    const mutants = fc.sample(
      mutantArbitrary(graphArbitrary(1, 4), (v) => contract.validate(schema, v).length > 0),
      { seed: 3, numRuns: 100 },
    );
    for (const mutant of mutants) {
      expect(contract.validate(schema, mutant.value)).not.toEqual([]);
      expect(mutant.pointer).toMatch(/^\//);
    }
    expect(new Set(mutants.map((m) => m.how.split(' ').at(-1) === 'removed')).size).toBe(2);
  });

  it('graphs are symmetric, with an empty diagonal, and their edge lists count their edges', () => {
    for (const graph of fc.sample(graphArbitrary(1, 9), { seed: 4, numRuns: 50 })) {
      graph.adj_matrix.forEach((row, i) => row.forEach((w, j) => expect(w).toBe(graph.adj_matrix[j]![i])));
      expect(graph.adj_matrix.every((row, i) => row[i] === 0)).toBe(true);
      const [header, ...lines] = edgeList(graph).trim().split('\n');
      expect(header).toBe(`${graph.num_nodes} ${lines.filter(Boolean).length}`);
    }
  });
});

describe('reference computations', () => {
  it("enumeration finds the example graph's 53, and 0 where every weight is negative", () => {
    const example = contract.doc.components.examples.MaxCutInput.value.adj_matrix;
    expect(bruteForceMaxCut(example)).toBe(53);
    expect(cutValue(example, [0, 1, 1, 1, 0, 0])).toBe(53);
    expect(bruteForceMaxCut(graphOf(5, () => -1).adj_matrix)).toBe(0);
  });

  it('timestamps parse as UTC, and an end_at before the end is named', () => {
    expect(parseTimestamp('11/22/2026, 14:03:07')).toBe(Date.parse('2026-11-22T14:03:07Z'));
    expect(parseTimestamp('2026-11-22 14:03:07')).toBeUndefined();
    const running = {
      status: 'RUNNING',
      started_at: '11/22/2026, 14:03:07',
      end_at: '11/22/2026, 14:03:07',
      executions: {},
      timestamps: { submitted: '2026-11-22T14:03:07.412Z' },
    };
    expect(jobTimestampProblems('K7Q2M9X4TB1R', running)).toEqual([
      'job K7Q2M9X4TB1R (RUNNING): end_at is "11/22/2026, 14:03:07" while it is RUNNING; it must be "" until the end',
    ]);
  });

  // The clock's boundaries, written out rather than left to the time of day the tests happen to run at.
  it('a job across midnight at the end of a year is fine, and a stamp two hours off there is exactly 7200 s off', () => {
    const execution = { status: 'SUCCESS', started_at: '12/31/2026, 23:59:59', end_at: '01/01/2027, 00:00:01' };
    const ended = {
      status: 'FINISHED',
      started_at: '12/31/2026, 23:59:58',
      end_at: '01/01/2027, 00:00:02',
      executions: { exact: execution },
      timestamps: { submitted: '2026-12-31T23:59:58.999Z', ended: '2027-01-01T00:00:02.001Z' },
    };
    expect(jobTimestampProblems('K7Q2M9X4TB1R', ended)).toEqual([]);
    const local = { ...ended, started_at: '01/01/2027, 01:59:58' };
    expect(jobTimestampProblems('K7Q2M9X4TB1R', local)).toEqual([
      'job K7Q2M9X4TB1R (FINISHED): end_at 01/01/2027, 00:00:02 is before started_at 01/01/2027, 01:59:58',
      'job K7Q2M9X4TB1R (FINISHED): started_at "01/01/2027, 01:59:58" and 2026-12-31T23:59:58.999Z are 7200 s apart; they are the same instant in UTC',
    ]);
    const late = { ...ended, executions: { exact: { ...execution, end_at: '01/01/2027, 00:00:03' } } };
    expect(jobTimestampProblems('K7Q2M9X4TB1R', late)).toEqual([
      'job K7Q2M9X4TB1R (FINISHED), execution exact (SUCCESS): ended at 01/01/2027, 00:00:03, after its job (01/01/2027, 00:00:02)',
    ]);
  });
});
