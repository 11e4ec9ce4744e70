// @jes/conformance: holds a deployment of the Job Execution Service to the contract (openapi.yaml).
export { checks } from './checks/registry.ts';
export type { Check } from './checks/check.ts';
export { checkNames, defaultRuns, defaultSeed, runConformance } from './run.ts';
export type {
  CheckResult,
  CheckStatus,
  ConformanceOptions,
  Coverage,
  Exchange,
  Failure,
  GeneratedCase,
  OperationCoverage,
  Profile,
  RateLimitWait,
  Report,
  Unreachable,
  Versions,
} from './types.ts';
