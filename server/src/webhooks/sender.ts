// The webhook sender, one per process (start/main.ts): claims due messages from the outbox (FOR UPDATE SKIP
// LOCKED, under a lease: any number of processes share the work, none sends a message another holds), makes at
// most `concurrency` attempts at once through @jes/contract/node's guarded attemptDelivery, and records them. Woken
// by a NOTIFY when a message is added, by an attempt's end, and by a timer for the next retry due (at least every
// 30 s, for what a lost notification or another process's expired lease left due). Each look records the attempts
// that ended since the last one and claims as many messages, two statements however many: on the embedded
// database, which runs one statement at a time, that is what the rate comes down to. A failure never stops it.
import type { Logger } from 'pino';
import { type AttemptResult, attemptDelivery, nextRetryDelayMs, webhookHeaders } from '@jes/contract/node';
import type { WebhookSettings } from '../config/config.ts';
import { webhookChannel } from '../store/channels.ts';
import type { Database } from '../store/database.ts';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  claimDeliveries,
  nextDueInMs,
  recordAttempts,
} from '../store/webhook-deliveries.ts';
import { webhookBody } from './payload.ts';

export interface WebhookSender {
  /** Ends the attempts in flight (handed back, due at once), records them, and stops. */
  stop(): Promise<void>;
}

const longestIdleMs = 30_000;
const shortestWaitMs = 50;

export async function startWebhookSender(
  db: Database,
  settings: WebhookSettings,
  logger: Logger,
): Promise<WebhookSender> {
  // Long enough for an attempt and its record: a claim outlives the attempt it covers.
  const leaseSeconds = Math.ceil(settings.attemptTimeoutMs / 1000) + 20;
  const inFlight = new Set<Promise<void>>();
  /** Attempts ended and not yet recorded. */
  let ended: AttemptRecord[] = [];
  const stopping = new AbortController();
  let passing = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const wakeIn = (ms: number) => {
    clearTimeout(timer);
    if (stopping.signal.aborted) return;
    timer = setTimeout(() => void pass(), Math.min(longestIdleMs, Math.max(shortestWaitMs, ms)));
    timer.unref();
  };

  /** What an attempt's result makes of its message. */
  function recordOf(delivery: ClaimedDelivery, result: AttemptResult): AttemptRecord {
    const claimed = { id: delivery.id, attempts: delivery.attempts };
    if (result.delivered) return { ...claimed, outcome: 'delivered' };
    if (stopping.signal.aborted) return { ...claimed, outcome: 'released' };
    const retryInMs = nextRetryDelayMs(delivery.attempts, settings.retryDelaysMs);
    logger[retryInMs === null ? 'warn' : 'debug'](
      { webhook: delivery.id, job: delivery.job_id, attempts: delivery.attempts, error: result.reason },
      retryInMs === null ? 'webhook delivery failed for good' : 'webhook attempt failed; it will be retried',
    );
    return { ...claimed, outcome: 'failed', error: result.reason, retryInMs };
  }

  async function attempt(delivery: ClaimedDelivery): Promise<AttemptResult> {
    let body: string;
    try {
      body = webhookBody(delivery);
    } catch (err) {
      // A failed attempt, so that a message that cannot be made ends `failed` rather than come back for good.
      logger.error({ err, webhook: delivery.id }, 'webhook message could not be made');
      return { delivered: false, reason: 'the message could not be made' };
    }
    return attemptDelivery({
      url: delivery.url,
      headers: webhookHeaders(delivery.secrets, delivery.id, Math.floor(Date.now() / 1000), body),
      body,
      allowHosts: settings.allowHosts,
      timeoutMs: settings.attemptTimeoutMs,
      signal: stopping.signal,
    });
  }

  const track = (delivery: ClaimedDelivery) => {
    const started = performance.now();
    const running = attempt(delivery).then((result) => {
      const record = recordOf(delivery, result);
      ended.push(record);
      // An attempt cut short by the stop is handed back, not an outcome.
      if (record.outcome !== 'released')
        db.metrics?.events.delivery(
          record.outcome === 'failed' && record.retryInMs === null ? 'given_up' : record.outcome,
          (performance.now() - started) / 1000,
        );
      inFlight.delete(running);
      void pass();
    });
    inFlight.add(running);
  };

  /** Writes the attempts ended so far; those it cannot (the database away) are left to their leases. */
  async function record(): Promise<void> {
    const records = ended;
    ended = [];
    await recordAttempts(db, records).catch(
      (err) =>
        void logger.warn({ err, attempts: records.length }, 'webhook attempts not recorded; their leases will run out'),
    );
  }

  async function pass(): Promise<void> {
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    try {
      do {
        again = false;
        await record();
        const room = settings.concurrency - inFlight.size;
        // Full, or stopping: the end of an attempt comes back here.
        if (room <= 0 || stopping.signal.aborted) return;
        const claimed = await claimDeliveries(db, room, leaseSeconds);
        for (const delivery of claimed) track(delivery);
        if (claimed.length === room) again = true;
      } while (again);
      wakeIn((await nextDueInMs(db)) ?? longestIdleMs);
    } catch (err) {
      logger.warn({ err }, 'webhook sender could not reach the database; trying again');
      wakeIn(1000);
    } finally {
      passing = false;
      // Woken while it looked for the next due time: look again.
      if (again) void pass();
    }
  }

  const unlisten = await db.listen(
    webhookChannel,
    () => void pass(),
    () => void pass(),
  );
  void pass();
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await unlisten();
      await Promise.allSettled([...inFlight]);
      while (passing) await new Promise((resolve) => setImmediate(resolve));
      await record();
    },
  };
}
