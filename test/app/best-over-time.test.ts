// The dashboard's best value over time (app/src/best-over-time.ts), from jobs shaped as GET /job/{job_id} gives them:
// each solver's line against the seconds since the job started running, its history merged with live points, a
// service without histories, and an answer's value missing from its history.
import { describe, expect, it } from 'vitest';
import type { Execution, Job } from '@jes/client';
import { linesOf, mergedHistory, withHistories } from '../../app/src/best-over-time.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, 0) + seconds * 1000).toISOString();

function execution(fields: Partial<Execution> & { runningAt?: number }): Execution {
  const { runningAt = 0, ...rest } = fields;
  return {
    status: 'RUNNING',
    started_at: '',
    end_at: null,
    duration_seconds: null,
    timestamps: { created: at(0), running: at(runningAt), ended: null },
    ...rest,
  } as Execution;
}

function job(executions: Record<string, Execution>, status: Job['status'] = 'RUNNING'): Job {
  return {
    id: 'K7Q2M9X4TB1R',
    status,
    problem_id: 'maxcut',
    executions,
    timestamps: { submitted: at(-1), running: at(0), ended: null },
  } as unknown as Job;
}

describe('linesOf', () => {
  it("draws each history against the seconds since the job started running, held to the solver's duration", () => {
    const lines = linesOf(
      job({
        'local-search': execution({
          duration_seconds: 2,
          best_value: 15,
          progress_history: [
            { seconds: 0.01, best_value: 10 },
            { seconds: 0.5, best_value: 15 },
          ],
        }),
        // Started 0.25 s after the job: its own seconds begin there.
        annealing: execution({
          runningAt: 0.25,
          duration_seconds: 0.5,
          best_value: 12,
          progress_history: [{ seconds: 0.5, best_value: 12 }],
        }),
        exact: execution({ status: 'PENDING' }),
      }),
    );
    expect(lines).toEqual([
      {
        solver: 'local-search',
        offset: 0,
        points: [
          [0.01, 0.01, 10],
          [0.5, 0.5, 15],
          [2, 2, 15],
        ],
      },
      { solver: 'annealing', offset: 0.25, points: [[0.75, 0.5, 12]] },
      // Every solver has its line (and keeps its colour), empty until it reports a value.
      { solver: 'exact', offset: 0, points: [] },
    ]);
  });

  // A value found in the solver's last moments, before any progress report, was in the answer only: the server's
  // history ended one improvement short (best_value 15,188, its last point 15,173).
  it("adds the answer's value at its time_to_best_seconds when the history lacks it", () => {
    const [line] = linesOf(
      job(
        {
          'local-search': execution({
            status: 'SUCCESS',
            duration_seconds: 3.4,
            best_value: 15188,
            data: { cut_value: 15188, partition: [], optimal: false, time_to_best_seconds: 3.2 },
            progress_history: [{ seconds: 1.4, best_value: 15173 }],
          }),
        },
        'FINISHED',
      ),
    );
    expect(line!.points).toEqual([
      [1.4, 1.4, 15173],
      [3.2, 3.2, 15188],
      [3.4, 3.4, 15188],
    ]);
  });

  it('makes a point of each read of a service that keeps no history', () => {
    const read = (duration: number, value: number) =>
      job({ 'local-search': execution({ duration_seconds: duration, best_value: value }) });
    const seen = [read(1, 10), read(2, 10), read(3, 12)].reduce<Job | undefined>(
      (before, next) => withHistories(before, next),
      undefined,
    )!;
    // The second read's value was no better: the first moment it was seen stands.
    expect(linesOf(seen)[0]!.points).toEqual([
      [1, 1, 10],
      [3, 3, 12],
    ]);
  });
});

describe('withHistories', () => {
  it('keeps the points the page heard after the read it merges (a progress event overtook it)', () => {
    const heard = job({
      'local-search': execution({
        duration_seconds: 1.2,
        best_value: 20,
        progress_history: [
          { seconds: 0.1, best_value: 10 },
          { seconds: 1.2, best_value: 20 },
        ],
      }),
    });
    const read = job({
      'local-search': execution({
        duration_seconds: 1,
        best_value: 10,
        progress_history: [{ seconds: 0.1, best_value: 10 }],
      }),
    });
    const e = withHistories(heard, read).executions['local-search']!;
    expect(e.progress_history).toEqual([
      { seconds: 0.1, best_value: 10 },
      { seconds: 1.2, best_value: 20 },
    ]);
    expect([e.best_value, e.duration_seconds]).toEqual([20, 1.2]);
  });
});

describe('mergedHistory', () => {
  it.each([
    ['one side empty', [], [{ seconds: 1, best_value: 5 }], [{ seconds: 1, best_value: 5 }]],
    [
      'two values in one millisecond: the later stands',
      [
        { seconds: 0.611, best_value: 15115 },
        { seconds: 0.611, best_value: 15126 },
      ],
      [],
      [{ seconds: 0.611, best_value: 15126 }],
    ],
    [
      'interleaved, and a repeat of a value dropped',
      [
        { seconds: 1, best_value: 5 },
        { seconds: 3, best_value: 7 },
      ],
      [
        { seconds: 2, best_value: 6 },
        { seconds: 4, best_value: 7 },
      ],
      [
        { seconds: 1, best_value: 5 },
        { seconds: 2, best_value: 6 },
        { seconds: 3, best_value: 7 },
      ],
    ],
  ])('%s', (_, a, b, merged) => {
    expect(mergedHistory(a, b)).toEqual(merged);
  });
});
