// The metrics of one process: a registry of its own (several servers run in one test process, each with its
// own), made once at start-up and passed to what counts. Names and labels follow Prometheus' conventions (units
// in names, `_total` counters, label values from bounded lists: never a job id, a user, a path or a header).
// docs/metrics.md lists them all; Node's process metrics (prom-client's defaults) come with them, unprefixed.
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { type EventMetrics, eventMetrics } from './events.ts';
import { type HttpMetrics, httpMetrics } from './http.ts';
import { type JobMetrics, jobMetrics } from './jobs.ts';
import { type StoreMetrics, type StoreSources, storeGauges, storeMetrics } from './store.ts';

export interface Metrics {
  readonly registry: Registry;
  readonly http: HttpMetrics;
  readonly jobs: JobMetrics;
  readonly store: StoreMetrics;
  readonly events: EventMetrics;
  /** Adds the gauges read from the database at scrape time, once it is open. */
  watchStore(sources: StoreSources): void;
}

export interface MetricsOptions {
  role: 'api' | 'worker';
  version: string;
  contractVersion: string;
  /** The contract's operationIds: the values of the `operation` label, besides the words of http.ts. */
  operationIds: Iterable<string>;
  /** The registries' use cases and their solvers: the values of `use_case` and `solver`. */
  useCases: Iterable<string>;
  solvers: Iterable<string>;
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'jes_build_info',
    help: 'Always 1: the server version, the contract version, and whether this is an API or a worker process',
    labelNames: ['version', 'contract_version', 'role'] as const,
    registers,
  }).set({ version: options.version, contract_version: options.contractVersion, role: options.role }, 1);
  return {
    registry,
    http: httpMetrics(registers, options.operationIds),
    jobs: jobMetrics(registers, options),
    store: storeMetrics(registers),
    events: eventMetrics(registers),
    watchStore: (sources) => storeGauges(registers, sources),
  };
}
