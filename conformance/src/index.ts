// @jes/conformance: holds a deployment of the Job Execution Service to the contract (openapi.yaml). Besides the run
// and its report, the plugin API: the type a check of your own is written against (Check, with CheckContext and what
// its members take and return), defineCheck for a plain .mjs module, and loadChecks for a module's checks.
export { checks } from './checks/registry.ts';
export { type Check, defineCheck } from './checks/check.ts';
export { loadChecks } from './check-modules.ts';
export type { CheckContext } from './context.ts';
export type { StreamRead } from './event-stream.ts';
export type { FinishedJob, Fixtures, SharedDataFile, SolverInfo, UseCaseInfo } from './fixtures.ts';
export { type Auth, CheckAbort, CheckSkip, type Reply, type RequestSpec, type StreamSpec } from './http.ts';
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
  GeneratedCase,
  OperationCoverage,
  Profile,
  RateLimitWait,
  Report,
  Unreachable,
  Versions,
} from './types.ts';
