// The webhook sender, one per process (start/main.ts): claims due messages from the outbox (FOR UPDATE SKIP
// LOCKED, under a lease: any number of processes share the work, none sends a message another holds), makes at
// most `concurrency` attempts at once through @jes/contract/node's guarded attemptDelivery, and records each. Woken
// by a NOTIFY when a message is added, by an attempt's end, and by a timer for the next retry due (at least every
// 30 s, for what a lost notification or another process's expired lease left due). A failure never stops it.
import type { Logger } from 'pino';
import { attemptDelivery, nextRetryDelayMs, webhookHeaders } from '@jes/contract/node';
import type { WebhookSettings } from '../config/config.ts';
import type { Database } from '../store/database.ts';
import {
  type ClaimedDelivery,
  claimDeliveries,
  nextDueInMs,
  recordAttempt,
  releaseDelivery,
  webhookChannel,
} from '../store/webhook-deliveries.ts';
import { webhookBody } from './payload.ts';

export interface WebhookSender {
  /** Ends the attempts in flight (handed back, due at once) and stops. */
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

  async function send(delivery: ClaimedDelivery): Promise<void> {
    const body = webhookBody(delivery);
    const result = await attemptDelivery({
      url: delivery.url,
      headers: webhookHeaders(delivery.secrets, delivery.id, Math.floor(Date.now() / 1000), body),
      body,
      allowHosts: settings.allowHosts,
      timeoutMs: settings.attemptTimeoutMs,
      signal: stopping.signal,
    });
    if (stopping.signal.aborted && !result.delivered) return releaseDelivery(db, delivery);
    if (result.delivered) return recordAttempt(db, delivery, { delivered: true });
    const retryInMs = nextRetryDelayMs(delivery.attempts, settings.retryDelaysMs);
    logger[retryInMs === null ? 'warn' : 'debug'](
      { webhook: delivery.id, job: delivery.job_id, attempts: delivery.attempts, error: result.reason },
      retryInMs === null ? 'webhook delivery failed for good' : 'webhook attempt failed; it will be retried',
    );
    return recordAttempt(db, delivery, { delivered: false, error: result.reason, retryInMs });
  }

  const track = (delivery: ClaimedDelivery) => {
    const attempt = send(delivery)
      // A record that cannot be written (the database away) is left to the lease: the message comes due again.
      .catch((err) => void logger.warn({ err, webhook: delivery.id }, 'webhook attempt not recorded'))
      .finally(() => {
        inFlight.delete(attempt);
        void pass();
      });
    inFlight.add(attempt);
  };

  async function pass(): Promise<void> {
    if (stopping.signal.aborted) return;
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    try {
      do {
        again = false;
        const room = settings.concurrency - inFlight.size;
        // Full: the end of an attempt comes back here.
        if (room <= 0) return;
        const claimed = await claimDeliveries(db, room, leaseSeconds);
        for (const delivery of claimed) track(delivery);
        if (claimed.length === room) again = true;
      } while (again && !stopping.signal.aborted);
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
    },
  };
}
