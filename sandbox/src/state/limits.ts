// What the sandbox holds at most, in memory (docs/sandbox.md, "What it keeps"). Past a cap on jobs or bytes the
// oldest ended jobs go first, of the user and then of anyone; what cannot make room is refused as a deployment
// refuses it (429 too_many_active_jobs, 413 storage_quota_exceeded). Past a cap on users, tokens or idempotency
// keys the oldest is forgotten; past the cap on long polls a poll is answered at once, without Preference-Applied;
// past the cap on event streams, one more is refused as a deployment refuses it (429 too_many_streams).

export interface StateLimits {
  /** Users (a username that logs in); past it, the user seen least recently is forgotten with all it holds. */
  maxUsers: number;
  /** Access tokens in all; past it, the oldest stops working (its client logs in again after the 401). */
  maxTokens: number;
  /** Jobs per user, ended or not. */
  maxJobsPerUser: number;
  /** Jobs in all. */
  maxJobs: number;
  /** Jobs per user that have not ended (as a deployment's JES_MAX_ACTIVE_JOBS). */
  maxActiveJobsPerUser: number;
  /** Bytes per user: inputs, outputs and data files. */
  maxBytesPerUser: number;
  /** Bytes in all. */
  maxBytes: number;
  /** Idempotency keys remembered per user (each for 24 hours), and in all. */
  maxIdempotencyKeysPerUser: number;
  maxIdempotencyKeys: number;
  /** Long polls (`Prefer: wait`) waiting at once, per user and in all. */
  maxWaitsPerUser: number;
  maxWaits: number;
  /** Event streams open at once per user (one more answers 429 too_many_streams, as a deployment's
   * JES_MAX_STREAMS_PER_USER), and in all. */
  maxStreamsPerUser: number;
  maxStreams: number;
}

const MiB = 1024 * 1024;

export const defaultLimits: Readonly<StateLimits> = Object.freeze({
  maxUsers: 1000,
  maxTokens: 10_000,
  maxJobsPerUser: 1000,
  maxJobs: 10_000,
  maxActiveJobsPerUser: 50,
  maxBytesPerUser: 256 * MiB,
  maxBytes: 1024 * MiB,
  maxIdempotencyKeysPerUser: 1000,
  maxIdempotencyKeys: 20_000,
  maxWaitsPerUser: 10,
  maxWaits: 200,
  maxStreamsPerUser: 50,
  maxStreams: 1000,
});
