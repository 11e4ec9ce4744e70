// Every check, in the order a run takes them: the behavioural checks first (they make the run's
// resources), the response checks last (they validate every response the run received).
import { ignoredAuth, missingAuth } from './auth.ts';
import type { Check } from './check.ts';
import { negativeDataRejection } from './negative-data.ts';
import { positiveDataAcceptance } from './positive-data.ts';
import { responseChecks } from './response-conformance.ts';
import { unsupportedMethod } from './unsupported-method.ts';

export const checks: readonly Check[] = [missingAuth, ignoredAuth, unsupportedMethod, negativeDataRejection, positiveDataAcceptance, ...responseChecks];
