// @jes/contract, the floor every other @jes package stands on: what they share about openapi.yaml. This entry is
// what the client and the browser load, so it reaches no dependency and nothing of Node.
export type { components, operations, paths } from './generated/openapi.ts';
export * from './error-catalogue.ts';
export { uriReference } from './uri-reference.ts';
export { cutValue } from './maxcut.ts';
export { energy } from './qubo.ts';
export { DeprecationError, deprecationHeaders, deprecationNotice } from './deprecation.ts';
export { documentedTimestamp, rfc3339, toMillisecond } from './format.ts';
export { deriveJobStatus, type ExecutionStatus, type JobStatus, terminalExecution, terminalJob } from './job-status.ts';
export { idempotencyKeyOf, maxIdempotencyKeyLength } from './idempotency-key.ts';
export { maxPreferredWait, preferredWait } from './prefer-wait.ts';
export {
  eventFrame,
  keepAliveFrame,
  keepAliveMs,
  progressEveryMs,
  resumeAfter,
  streamPreamble,
  streamRetryMs,
} from './event-stream.ts';
export { maxProgressPoints, type ProgressPoint, withProgress } from './progress-history.ts';
