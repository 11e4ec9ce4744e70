// The stateful sandbox's webhook deliveries, as a deployment makes them, in memory: a user whose webhook is set is
// followed as a GET /events stream follows it (user-events.ts), and each status change of its jobs after its
// PENDING becomes a `job.status_changed` message, each terminal one a `job.ended` too, for the events the webhook
// asks for. A message is sent at once, signed and guarded by @jes/contract/node (the server's own code: signature,
// address guard, one attempt of 10 s at most, no redirect), and retried on the contract's schedule `speed` times
// faster, with the same id and body, until an answer is 2xx (`delivered`) or the attempts run out (`failed`).
import { type components, rfc3339, terminalJob } from '@jes/contract';
import { attemptDelivery, newWebhookSecret, nextRetryDelayMs, webhookHeaders } from '@jes/contract/node';
import type { JobRecord } from './jobs.ts';
import { renderJob } from './render.ts';
import { type State, type User, userKey } from './store.ts';
import { logUntil, nextUserChange } from './user-events.ts';

type WebhookEventType = components['schemas']['WebhookEventType'];

export interface DeliveryRecord {
  id: string;
  type: WebhookEventType;
  jobId: string;
  url: string;
  /** The body, the same bytes on every attempt. */
  body: string;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  failed: boolean;
  lastError: string | null;
}

/** A user's webhook: where, what, its secrets, its recent deliveries (oldest first). */
export interface UserWebhook {
  url: string | null;
  events: WebhookEventType[];
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: number | null;
  deliveries: DeliveryRecord[];
  /** The last of the user's changes (user-events.ts) looked at. */
  cursor: number;
  /** Stops following the user's jobs, while it does. */
  unwatch: (() => void) | undefined;
}

/** Deliveries kept per user, the oldest forgotten first (a deployment keeps them as long as their jobs). */
export const maxDeliveriesPerUser = 1000;

const idAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type WebhookSender = ReturnType<typeof createWebhookSender>;

export function createWebhookSender(state: State, allowHosts: ReadonlySet<string>) {
  const { clock } = state;
  const stopping = new AbortController();
  const timers = new Set<NodeJS.Timeout>();

  function later(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    // The sandbox's server keeps the process running; a retry due in hours does not.
    timer.unref();
    timers.add(timer);
    return timer;
  }

  /** The user's webhook, made (no URL, a new secret) on first use. */
  function webhookOf(user: User): UserWebhook {
    // The secret is the system's randomness, not the seed's: a seed printed in a log must not give it away.
    user.webhook ??= {
      url: null,
      events: ['job.ended'],
      secret: newWebhookSecret(),
      previousSecret: null,
      previousExpiresAt: null,
      deliveries: [],
      cursor: 0,
      unwatch: undefined,
    };
    return user.webhook;
  }

  async function attempt(user: User, hook: UserWebhook, delivery: DeliveryRecord): Promise<void> {
    if (stopping.signal.aborted || !state.holdsUser(user) || !hook.deliveries.includes(delivery)) return;
    const now = clock.now();
    delivery.attempts++;
    delivery.nextAttemptAt = null;
    const previous = hook.previousSecret !== null && (hook.previousExpiresAt ?? 0) > now ? [hook.previousSecret] : [];
    const headers = webhookHeaders([hook.secret, ...previous], delivery.id, Math.floor(now / 1000), delivery.body);
    const result = await attemptDelivery({
      url: delivery.url,
      headers,
      body: delivery.body,
      allowHosts,
      signal: stopping.signal,
    });
    if (result.delivered) {
      delivery.deliveredAt = clock.now();
      delivery.lastError = null;
      return;
    }
    delivery.lastError = result.reason;
    if (stopping.signal.aborted) return;
    const delay = nextRetryDelayMs(delivery.attempts);
    if (delay === null) {
      delivery.failed = true;
      return;
    }
    const wait = clock.wallMs(delay / 1000);
    delivery.nextAttemptAt = clock.now() + wait;
    later(wait, () => void attempt(user, hook, delivery));
  }

  /** Queues the messages one status change makes, and sends each at once. */
  function enqueue(user: User, hook: UserWebhook, record: JobRecord, at: number, status: string): void {
    if (status === 'PENDING' || hook.url === null) return;
    const types: WebhookEventType[] = terminalJob.has(status)
      ? ['job.status_changed', 'job.ended']
      : ['job.status_changed'];
    // The job as listings show it, at the instant it changed.
    const job = renderJob(record, at, false);
    for (const type of types.filter((t) => hook.events.includes(t))) {
      const body = JSON.stringify({ type, timestamp: rfc3339(new Date(at)), data: { job_id: record.id, status, job } });
      const delivery: DeliveryRecord = {
        id: `msg_${state.random.text(idAlphabet, 27)}`,
        type,
        jobId: record.id,
        url: hook.url,
        body,
        createdAt: at,
        attempts: 0,
        nextAttemptAt: clock.now(),
        deliveredAt: null,
        failed: false,
        lastError: null,
      };
      hook.deliveries.push(delivery);
      if (hook.deliveries.length > maxDeliveriesPerUser) hook.deliveries.shift();
      void attempt(user, hook, delivery);
    }
  }

  /** Follows the user's jobs from now on, while its webhook has a URL. */
  function watch(user: User): void {
    const hook = webhookOf(user);
    if (hook.unwatch) return;
    const log = () => logUntil(user.log, user.jobs.values(), clock.now(), state.holds);
    hook.cursor = log().seq;
    let timer: NodeJS.Timeout | undefined;
    const step = () => {
      if (!state.holdsUser(user) || hook.url === null) return hook.unwatch?.();
      for (const change of log().changes)
        if (change.seq > hook.cursor) {
          hook.cursor = change.seq;
          enqueue(user, hook, change.record, change.event.at, change.event.data.status);
        }
      if (timer) timers.delete(timer);
      clearTimeout(timer);
      const next = nextUserChange(user.jobs.values(), clock.now());
      // A millisecond past it: a change is read once its instant has passed.
      if (next !== undefined) timer = later(Math.max(0, next - clock.now()) + 1, step);
    };
    const unwake = state.onWake(userKey(user.name), step);
    hook.unwatch = () => {
      clearTimeout(timer);
      if (timer) timers.delete(timer);
      unwake();
      hook.unwatch = undefined;
    };
    step();
  }

  return {
    webhookOf,
    watch,
    /** Stops following the user's jobs and drops the deliveries not yet made (deleteWebhook). */
    unwatch(user: User): void {
      const hook = webhookOf(user);
      hook.unwatch?.();
      hook.deliveries = hook.deliveries.filter((d) => d.deliveredAt !== null || d.failed);
    },
    /** Ends every attempt and retry (the sandbox stops). */
    stop(): void {
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
