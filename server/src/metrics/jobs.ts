// Jobs and their executions: starts and ends counted by the process that made them, the runs of this process's
// workers, leases taken back, executions requeued, data files validated.
import { Counter, Histogram, type Registry } from 'prom-client';
import { capped, oneOf } from './labels.ts';

export interface JobMetrics {
  started(useCase: string): void;
  /** A job reached a terminal status (FINISHED, ERROR, CANCELLED) in a transaction of this process. */
  ended(useCase: string, status: string): void;
  /** An execution run by this process's workers ended: `outcome` success, error, cancelled, handed_back or lease_lost. */
  executed(solver: string, outcome: string, seconds: number): void;
  /** Executions taken back from workers whose leases ran out, of which `requeued` went back to PENDING. */
  leasesExpired(count: number): void;
  requeued(count: number): void;
  /** A data file's validation recorded or put off: `outcome` valid, invalid, failed, given_up or postponed. */
  validated(format: string, outcome: string): void;
}

const terminal = oneOf(['FINISHED', 'ERROR', 'CANCELLED']);
const outcomes = oneOf(['success', 'error', 'cancelled', 'handed_back', 'lease_lost']);
const validations = oneOf(['valid', 'invalid', 'failed', 'given_up', 'postponed']);

export function jobMetrics(
  registers: Registry[],
  known: { useCases: Iterable<string>; solvers: Iterable<string> },
): JobMetrics {
  const useCase = oneOf(known.useCases);
  const solver = oneOf(known.solvers);
  // A data file's format is the use case's reader's word; not listed anywhere, so capped.
  const format = capped(16);
  const started = new Counter({
    name: 'jes_jobs_started_total',
    help: 'Jobs started (created) by this process, by use case',
    labelNames: ['use_case'] as const,
    registers,
  });
  const ended = new Counter({
    name: 'jes_jobs_ended_total',
    help: 'Jobs that reached a terminal status in this process, by use case and status',
    labelNames: ['use_case', 'status'] as const,
    registers,
  });
  const executions = new Counter({
    name: 'jes_executions_total',
    help: "Executions run by this process's workers that ended, by solver and outcome",
    labelNames: ['solver', 'outcome'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'jes_execution_duration_seconds',
    help: 'Time from claiming an execution to its end (input, solve), by solver and outcome',
    labelNames: ['solver', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
    registers,
  });
  const expired = new Counter({
    name: 'jes_leases_expired_total',
    help: 'Executions taken back by this process from workers whose lease ran out',
    registers,
  });
  const requeued = new Counter({
    name: 'jes_executions_requeued_total',
    help: 'Executions this process put back in the queue (leases run out, handed back on stop or after a failure)',
    registers,
  });
  const validated = new Counter({
    name: 'jes_data_file_validations_total',
    help: 'Data file validations by this process, by format (unknown when unreadable) and outcome',
    labelNames: ['format', 'outcome'] as const,
    registers,
  });
  return {
    started: (id) => started.inc({ use_case: useCase(id) }),
    ended: (id, status) => ended.inc({ use_case: useCase(id), status: terminal(status) }),
    executed(name, outcome, seconds) {
      const labels = { solver: solver(name), outcome: outcomes(outcome) };
      executions.inc(labels);
      duration.observe(labels, seconds);
    },
    leasesExpired(count) {
      if (count > 0) expired.inc(count);
    },
    requeued(count) {
      if (count > 0) requeued.inc(count);
    },
    validated: (name, outcome) => validated.inc({ format: format(name), outcome: validations(outcome) }),
  };
}
