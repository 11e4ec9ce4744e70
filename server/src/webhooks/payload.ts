// A message's body, the contract's WebhookPayload: `{type, timestamp, data: {job_id, status, job}}`, the job
// rendered as listings show it from the snapshot taken when its status changed (webhook-deliveries.ts), at that
// instant. Rendered afresh for each attempt from the same snapshot, so every attempt sends the same bytes.
import { type components, rfc3339 } from '@jes/contract';
import { renderJob } from '../jobs/render.ts';
import type { ExecutionRow, JobRow } from '../store/jobs.ts';
import type { ClaimedDelivery } from '../store/webhook-deliveries.ts';

type WebhookPayload = components['schemas']['WebhookPayload'];

/** jsonb gives instants as text: these columns are Dates again for the renderer. */
const jobInstants = ['cancel_requested_at', 'submitted_at', 'running_at', 'ended_at'] as const;
const executionInstants = ['created_at', 'running_at', 'ended_at'] as const;

function revive<T>(row: Record<string, unknown>, instants: readonly string[]): T {
  const revived: Record<string, unknown> = { ...row };
  for (const key of instants) if (typeof row[key] === 'string') revived[key] = new Date(row[key]);
  return revived as T;
}

export function webhookBody(delivery: Pick<ClaimedDelivery, 'type' | 'snapshot' | 'created_at'>): string {
  const job = revive<JobRow>(delivery.snapshot.job, jobInstants);
  const executions = delivery.snapshot.executions.map((e) => revive<ExecutionRow>(e, executionInstants));
  const payload: WebhookPayload = {
    type: delivery.type as WebhookPayload['type'],
    timestamp: rfc3339(delivery.created_at)!,
    data: {
      job_id: job.id,
      status: job.status as WebhookPayload['data']['status'],
      job: renderJob({ job, executions }, false, delivery.created_at),
    },
  };
  return JSON.stringify(payload);
}
