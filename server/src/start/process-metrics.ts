// This process's metrics, when they are on: made once at start-up with the lists their labels may take (the
// contract's operationIds, the registries' use cases and solvers) and passed to what counts. A worker process
// keeps none unless the ops listener (JES_METRICS_PORT) can serve them.
import type { Config } from '../config/config.ts';
import { contract } from '../core/contract.ts';
import { contractVersion, serverVersion } from '../core/version.ts';
import { createMetrics, type Metrics } from '../metrics/metrics.ts';
import { useCases } from '../use-cases.ts';

const operationIds = Object.values(contract.paths).flatMap((item) =>
  Object.values(item as Record<string, unknown>).flatMap((operation) => {
    const id = (operation as { operationId?: unknown } | null)?.operationId;
    return typeof id === 'string' ? [id] : [];
  }),
);

export function processMetrics(config: Config, role: 'api' | 'worker'): Metrics | undefined {
  if (!config.metrics.enabled || (role === 'worker' && config.metrics.port === undefined)) return undefined;
  return createMetrics({
    role,
    version: serverVersion,
    contractVersion,
    operationIds,
    useCases: useCases.keys(),
    solvers: [...useCases.values()].flatMap((useCase) => useCase.solvers.map((solver) => solver.name)),
  });
}
