// Event streams open in this process and the events they sent; webhook deliveries this process attempted.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { oneOf } from './labels.ts';

export interface EventMetrics {
  /** An event written to an open stream. */
  streamEvent(): void;
  /** A webhook attempt ended: `outcome` delivered, failed (to be retried) or given_up, after `seconds`. */
  delivery(outcome: string, seconds: number): void;
  /** Where the number of open streams is read at scrape time (the API process's EventStreams). */
  watchStreams(open: () => number): void;
}

const outcomes = oneOf(['delivered', 'failed', 'given_up']);

export function eventMetrics(registers: Registry[]): EventMetrics {
  let open: (() => number) | undefined;
  new Gauge({
    name: 'jes_event_streams_open',
    help: 'Event streams (GET /job/{job_id}/events, GET /events) open in this process now',
    registers,
    collect() {
      this.set(open?.() ?? 0);
    },
  });
  const events = new Counter({
    name: 'jes_event_stream_events_total',
    help: 'Events this process wrote to open event streams',
    registers,
  });
  const deliveries = new Counter({
    name: 'jes_webhook_deliveries_total',
    help: 'Webhook delivery attempts by this process, by outcome',
    labelNames: ['outcome'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'jes_webhook_delivery_duration_seconds',
    help: 'Time of one webhook delivery attempt, from sending to the answer or failure',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  return {
    streamEvent: () => events.inc(),
    delivery(outcome, seconds) {
      deliveries.inc({ outcome: outcomes(outcome) });
      duration.observe(seconds);
    },
    watchStreams(count) {
      open = count;
    },
  };
}
