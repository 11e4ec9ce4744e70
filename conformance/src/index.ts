// @jes/conformance: holds a deployment of the Job Execution Service to the contract (openapi.yaml).
export { checks } from './checks/registry.ts';
export type { Check } from './checks/check.ts';
export type { RecordedEntry, RecordedHar, RecordedRun } from './har/har.ts';
export {
  type DifferenceKind,
  type ReplayDifference,
  type ReplayOptions,
  type ReplayReport,
  replayHar,
} from './har/replay.ts';
export { checkNames, defaultRuns, defaultSeed, runConformance } from './run.ts';
export type {
  CheckResult,
  CheckStatus,
  ConformanceOptions,
  Coverage,
  Exchange,
  Failure,
  OperationCoverage,
  Profile,
  RateLimitWait,
  Report,
  Unreachable,
  Versions,
} from './types.ts';
