// @jes/client: the typed client of the Job Execution Service. Browser-compatible: it imports openapi-fetch and
// eventsource-parser, and nothing from node:. A webhook receiver's check is `@jes/client/verify-webhook` (a page
// never holds the secret, so its bundle need not carry the check). Node-only helpers (file paths, Node streams) are in `@jes/client/node`.
export { bestOf, bestValue, objectiveOf } from './best-value.ts';
export { createJesClient, type JesClient, type JesClientOptions, type ListQuery } from './client.ts';
export type { ReconnectOptions, StreamOptions } from './event-stream.ts';
export { type JobEvent, type StreamEvent, type UserEvent, withEvent } from './job-events.ts';
export type { paths, components } from '@jes/contract';
export { isMaxCutOutput, isQuboOutput } from './outputs.ts';
export { formatProblem, toProblem } from './result.ts';
export { newIdempotencyKey, type RetryOptions } from './retry.ts';
export type { Credentials } from './session.ts';
export { MAX_INLINE_BYTES, type StartedJob, type StartJobOptions } from './start-job.ts';
export type * from './types.ts';
export type { UploadOptions } from './upload.ts';
export { isTerminal, type WaitOptions } from './wait.ts';
export type { WebhookCalls } from './webhooks.ts';
