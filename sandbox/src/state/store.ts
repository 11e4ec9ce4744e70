// Everything the stateful sandbox keeps, in memory, per user: its jobs, data files and idempotency keys, and the
// tokens that name it. Any username logs in (any password) and is its own user. Bounded (limits.ts): past a cap the
// oldest ended jobs go first; users, tokens and keys are forgotten oldest first. `reset` empties it all and starts
// the seeded random sequence again, so a run after a reset repeats a run after a start.
import type { Answer } from '../conventions.ts';
import { type Clock, createClock } from './clock.ts';
import type { DataFileRecord } from './data-files.ts';
import { ended, type JobRecord } from './jobs.ts';
import { defaultLimits, type StateLimits } from './limits.ts';
import { createRandom, type Random } from './random.ts';
import { emptyLog, type UserEventLog } from './user-events.ts';
import type { UserWebhook } from './webhook-deliveries.ts';

export interface User {
  name: string;
  /** Oldest first. */
  jobs: Map<string, JobRecord>;
  files: Map<string, DataFileRecord>;
  keys: Map<string, { fingerprint: string; answer: Answer; at: number }>;
  bytes: number;
  waits: number;
  /** Event streams open (GET /job/{job_id}/events and GET /events). */
  streams: number;
  /** The status changes of its jobs numbered across them, for GET /events (user-events.ts). */
  log: UserEventLog;
  /** Its webhook, once it has asked for it (webhook-deliveries.ts). */
  webhook?: UserWebhook;
}

export interface StateOptions {
  /** Seeds ids, tokens, timings and answers (`--seed`); without it, one is drawn. */
  seed?: number | undefined;
  /** How many times faster than a deployment jobs run (`--speed`). */
  speed?: number | undefined;
  limits?: Partial<StateLimits> | undefined;
  /** The wall clock (tests). */
  now?: () => number;
}

/** A token lives as long as a deployment's (`expires_in`). */
export const tokenSeconds = 3600;
/** An idempotency key is remembered this long, as on a deployment. */
const keyMs = 24 * 3600 * 1000;
const tokenAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const jobIdAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** What waits on any job of a user waits on (onWake): a job id never has a line break. */
export const userKey = (name: string): string => `\nuser ${name}`;

export type State = ReturnType<typeof createState>;

export function createState(options: StateOptions = {}) {
  const limits: StateLimits = { ...defaultLimits, ...options.limits };
  const clock: Clock = createClock(options.speed, options.now);
  const seed = createRandom(options.seed).seed;
  let random: Random = createRandom(seed);
  const users = new Map<string, User>();
  const tokens = new Map<string, { user: string; expiresAt: number }>();
  const jobs = new Map<string, JobRecord>();
  let bytes = 0;
  let waits = 0;
  let streams = 0;
  const waiters = new Map<string, Set<() => void>>();
  /** Every user's keys, oldest first: past the cap in all, the oldest key of anyone is forgotten. */
  const keys = new Map<string, User>();

  /** Wakes the long polls on a job (it changed at once: a cancel, a deletion, a reset). */
  function wake(id: string): void {
    for (const waiter of waiters.get(id) ?? []) waiter();
  }

  /** Wakes what waits on a job and on its user's jobs (GET /events): it was added, cancelled or dropped. */
  function changed(record: JobRecord): void {
    wake(record.id);
    wake(userKey(record.owner));
  }

  function dropJob(record: JobRecord): void {
    const user = users.get(record.owner);
    jobs.delete(record.id);
    user?.jobs.delete(record.id);
    if (user) user.bytes -= record.heldBytes;
    bytes -= record.heldBytes;
    changed(record);
  }

  function forgetUser(user: User): void {
    for (const record of user.jobs.values()) dropJob(record);
    for (const file of user.files.values()) bytes -= file.heldBytes;
    users.delete(user.name);
    for (const [token, held] of tokens) if (held.user === user.name) tokens.delete(token);
    for (const [held, owner] of keys) if (owner === user) keys.delete(held);
  }

  /** The user of this name, made when new (forgetting the one seen least recently past the cap). */
  function user(name: string): User {
    let found = users.get(name);
    if (found) users.delete(name);
    else
      found = {
        name,
        jobs: new Map(),
        files: new Map(),
        keys: new Map(),
        bytes: 0,
        waits: 0,
        streams: 0,
        log: emptyLog(),
      };
    users.set(name, found);
    if (users.size > limits.maxUsers) forgetUser(users.values().next().value!);
    return found;
  }

  /**
   * Drops ended jobs, the user's oldest first and then anyone's, until `incoming` bytes (and a job, when `job`)
   * fit under the caps; whether they do.
   */
  function makeRoom(owner: User, incoming: number, job: boolean): boolean {
    const now = clock.now();
    const extra = job ? 1 : 0;
    const fits = () =>
      owner.bytes + incoming <= limits.maxBytesPerUser &&
      owner.jobs.size + extra <= limits.maxJobsPerUser &&
      bytes + incoming <= limits.maxBytes &&
      jobs.size + extra <= limits.maxJobs;
    for (const record of owner.jobs.values()) {
      if (owner.bytes + incoming <= limits.maxBytesPerUser && owner.jobs.size + extra <= limits.maxJobsPerUser) break;
      if (ended(record, now)) dropJob(record);
    }
    for (const record of jobs.values()) {
      if (fits()) break;
      if (ended(record, now)) dropJob(record);
    }
    return fits();
  }

  return {
    limits,
    clock,
    seed,
    get random(): Random {
      return random;
    },
    user,

    /**
     * A new token for `name` (POST /login), shaped as a deployment's (a JWT with its claims: sub, env, iat, exp, jti),
     * signed by nobody: the sandbox knows its tokens by heart.
     */
    login(name: string): string {
      const owner = user(name);
      const now = clock.now();
      const iat = Math.floor(now / 1000);
      const claims = { sub: name, env: 'sandbox', iat, exp: iat + tokenSeconds, jti: random.text(tokenAlphabet, 22) };
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const token = `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.${random.text(tokenAlphabet, 43)}`;
      tokens.set(token, { user: owner.name, expiresAt: now + tokenSeconds * 1000 });
      if (tokens.size > limits.maxTokens) tokens.delete(tokens.keys().next().value!);
      return token;
    },

    /** The user a token names, or undefined for a token the sandbox did not give (or that expired). */
    authenticate(token: string): User | undefined {
      const held = tokens.get(token);
      if (!held) return undefined;
      if (held.expiresAt <= clock.now()) {
        tokens.delete(token);
        return undefined;
      }
      return user(held.user);
    },

    /** A job id no job has: 12 of the contract's characters. */
    newJobId(): string {
      for (;;) {
        const id = random.text(jobIdAlphabet, 12);
        if (!jobs.has(id)) return id;
      }
    },

    makeRoom,

    addJob(record: JobRecord): void {
      const owner = user(record.owner);
      owner.jobs.set(record.id, record);
      jobs.set(record.id, record);
      owner.bytes += record.heldBytes;
      bytes += record.heldBytes;
      changed(record);
    },

    dropJob,
    changed,

    /** Whether the user is still held (not forgotten past the cap, nor reset away). */
    holdsUser: (owner: User): boolean => users.get(owner.name) === owner,

    /** Whether the job is still held (not deleted, dropped or reset away). */
    holds: (record: JobRecord): boolean => jobs.get(record.id) === record,

    addFile(owner: User, file: DataFileRecord): void {
      owner.files.set(file.id, file);
      owner.bytes += file.heldBytes;
      bytes += file.heldBytes;
    },

    dropFile(owner: User, file: DataFileRecord): void {
      owner.files.delete(file.id);
      owner.bytes -= file.heldBytes;
      bytes -= file.heldBytes;
    },

    /** The answer remembered for a key, if it is younger than a day. */
    remembered(owner: User, key: string) {
      const kept = owner.keys.get(key);
      if (kept && clock.now() - kept.at > keyMs) {
        owner.keys.delete(key);
        keys.delete(`${owner.name}\n${key}`);
      }
      return owner.keys.get(key);
    },

    remember(owner: User, key: string, fingerprint: string, answer: Answer): void {
      owner.keys.set(key, { fingerprint, answer, at: clock.now() });
      keys.set(`${owner.name}\n${key}`, owner);
      if (owner.keys.size > limits.maxIdempotencyKeysPerUser) {
        const oldest = owner.keys.keys().next().value!;
        owner.keys.delete(oldest);
        keys.delete(`${owner.name}\n${oldest}`);
      }
      if (keys.size > limits.maxIdempotencyKeys) {
        const [held, user] = keys.entries().next().value!;
        keys.delete(held);
        user.keys.delete(held.slice(user.name.length + 1));
      }
    },

    /** A place for a long poll, released by the function returned; undefined past the caps. */
    waitSlot(owner: User): (() => void) | undefined {
      if (owner.waits >= limits.maxWaitsPerUser || waits >= limits.maxWaits) return undefined;
      owner.waits++;
      waits++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        owner.waits--;
        waits--;
      };
    },

    /** A place for an event stream, released by the function returned; undefined past the caps. */
    streamSlot(owner: User): (() => void) | undefined {
      if (owner.streams >= limits.maxStreamsPerUser || streams >= limits.maxStreams) return undefined;
      owner.streams++;
      streams++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        owner.streams--;
        streams--;
      };
    },

    /** When a token stops working (wall ms), or undefined for one the sandbox does not know. */
    tokenExpiresAt: (token: string): number | undefined => tokens.get(token)?.expiresAt,

    /** Calls `waiter` when the job (or, with userKey, any job of the user) changes at once; the function returned stops listening. */
    onWake(id: string, waiter: () => void): () => void {
      const set = waiters.get(id) ?? new Set();
      waiters.set(id, set.add(waiter));
      return () => {
        set.delete(waiter);
        if (!set.size) waiters.delete(id);
      };
    },

    wake,

    /** Forgets everything and starts the random sequence again (POST /sandbox/reset). */
    reset(): void {
      const waiting = [...waiters.values()].flatMap((set) => [...set]);
      users.clear();
      tokens.clear();
      jobs.clear();
      keys.clear();
      bytes = 0;
      random = createRandom(seed);
      for (const waiter of waiting) waiter();
    },
  };
}
