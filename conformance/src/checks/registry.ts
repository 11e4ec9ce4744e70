// Every check, in the order a run takes them: the behavioural checks first (they make the run's
// resources), the response checks last (they validate every response the run received).
import type { Check } from './check.ts';
import { responseChecks } from './response-conformance.ts';

export const checks: readonly Check[] = [...responseChecks];
