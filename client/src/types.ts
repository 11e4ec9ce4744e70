// The client's public types, named after the contract's schemas (@jes/contract's generated types).
import type { components } from '@jes/contract';

type Schemas = components['schemas'];

/** An RFC 9457 problem with the contract's stable `code` (print it as `code: detail`). */
export type Problem = Schemas['Problem'];
export type JobStatus = Schemas['JobStatus'];
export type ExecutionStatus = Schemas['ExecutionStatus'];
export type Execution = Schemas['Execution'];
export type UseCase = Schemas['UseCase'];
export type SolverChoice = Schemas['SolverChoice'];
export type MaxCutInput = Schemas['MaxCutInput'];
export type MaxCutOutput = Schemas['MaxCutOutput'];
export type QuboInput = Schemas['QuboInput'];
export type QuboOutput = Schemas['QuboOutput'];
export type JobOutput = Schemas['JobOutput'];
export type LoginResponse = Schemas['LoginResponse'];
export type Health = Schemas['Health'];
export type DataFileStatus = Schemas['DataFileStatus'];

/** A job as the contract describes it, with the id it is keyed by in the envelope. */
export type Job = Schemas['Job'] & { id: string };
/** A data file as the contract describes it, with its identifier (the SHA-1 of its bytes). */
export type DataFile = Schemas['DataFile'] & { id: string };

/**
 * Each use case's inline input: `startJob('maxcut', input)` takes a `MaxCutInput` and nothing else,
 * `startJob('qubo', input)` a `QuboInput`.
 */
export interface ProblemInputs {
  maxcut: MaxCutInput;
  qubo: QuboInput;
}
export type ProblemId = keyof ProblemInputs;

/**
 * Each use case's solver output (an execution's `data`, an entry of `JobOutput.outputs`). It extends the
 * record of every `ProblemId`, so a use case given an input and no output is a compile error.
 */
export interface ProblemOutputs extends Record<ProblemId, unknown> {
  maxcut: MaxCutOutput;
  qubo: QuboOutput;
}

/**
 * A job's outputs, typed as the use case `P`'s (`JobOutput` types them as any use case's). The contract's
 * `JobOutput` does not name its use case: the job does (`Job.problem_id`).
 */
export type JobOutputOf<P extends ProblemId> = Omit<JobOutput, 'outputs'> & {
  outputs: { [solver: string]: ProblemOutputs[P] | null };
};

/** A job's input given as an uploaded data file instead of inline. */
export interface DataFileInput {
  data_file_identifier: string;
}

/**
 * What every helper resolves to: the data, or the problem the API answered with. HTTP errors never
 * throw; a network failure or an aborted signal rejects as `fetch` does.
 */
export type Result<T> =
  { data: T; error?: undefined; response: Response } | { data?: undefined; error: Problem; response: Response };

/** One page of a listing, in the service's order (newest first). */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

export type WebhookEventType = Schemas['WebhookEventType'];
/** Where deliveries go and what they tell (`setWebhook`). */
export type WebhookRequest = Schemas['WebhookRequest'];
/** The user's webhook: its URL (`null` when none is set), its events and its signing secret. */
export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
/** The body of a delivery, as `verifyWebhook` returns it once its signature and timestamp are checked. */
export type WebhookPayload = Schemas['WebhookPayload'];
