// Every built-in check, in the order a run takes them: the behavioural checks first (they make the run's
// resources), then the closing checks: terminal_states (it reads again what the run saw end and deleted) and the
// response checks (they validate and time every response the run received). Checks of your own run between the two
// (selection.ts).
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
import { terminalStates } from './terminal-states.ts';
import { timestamps } from './timestamps.ts';
import { unsupportedMethod } from './unsupported-method.ts';
import { userEvents } from './user-events.ts';
import { webhookDelivery } from './webhook-delivery.ts';
import { webhookRetry } from './webhook-retry.ts';

export const behaviouralChecks: readonly Check[] = [
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
];

/** What runs after the behavioural checks and checks of your own, so that it sees what they all did. */
export const closingChecks: readonly Check[] = [terminalStates, ...responseChecks];

export const checks: readonly Check[] = [...behaviouralChecks, ...closingChecks];
