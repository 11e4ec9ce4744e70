// Every check, in the order a run takes them: the behavioural checks first (they make the run's
// resources), the response checks last (they validate and time every response the run received).
import { ignoredAuth, missingAuth } from './auth.ts';
import type { Check } from './check.ts';
import { idempotency } from './idempotency.ts';
import { isolation } from './isolation.ts';
import { jobDeletion } from './job-deletion.ts';
import { jobEvents } from './job-events.ts';
import { jobEventsResume } from './job-events-resume.ts';
import { lifecycle } from './lifecycle.ts';
import { limits } from './limits.ts';
import { maxcutSemantics } from './maxcut-semantics.ts';
import { negativeDataRejection } from './negative-data.ts';
import { positiveDataAcceptance } from './positive-data.ts';
import { quboSemantics } from './qubo-semantics.ts';
import { ensureResourceAvailability, useAfterFree } from './resources.ts';
import { responseChecks } from './response-conformance.ts';
import { timestamps } from './timestamps.ts';
import { unsupportedMethod } from './unsupported-method.ts';
import { userEvents } from './user-events.ts';
import { webhookDelivery } from './webhook-delivery.ts';
import { webhookRetry } from './webhook-retry.ts';

export const checks: readonly Check[] = [
  lifecycle,
  ensureResourceAvailability,
  useAfterFree,
  missingAuth,
  ignoredAuth,
  unsupportedMethod,
  negativeDataRejection,
  positiveDataAcceptance,
  limits,
  maxcutSemantics,
  quboSemantics,
  isolation,
  idempotency,
  jobDeletion,
  timestamps,
  jobEvents,
  jobEventsResume,
  userEvents,
  webhookDelivery,
  webhookRetry,
  ...responseChecks,
];
