// The documented shapes of the Job Execution Service, as named checks over openapi.yaml. Each check returns
// its violations (empty when the contract keeps the shape), so tests can run it on the real document and
// on deliberately broken copies.
import {
  addedEndpoints,
  executions,
  getJob,
  inlineLimit,
  login,
  startJob,
  statuses,
  timestamps,
} from './checks/documented-shapes.ts';
import { errorModel, links, operationHygiene, responseHeaders, security, servers } from './checks/conventions.ts';
import { examplesValid, jobExamples, maxcutExamples, quboExamples, useCaseExamples } from './checks/examples.ts';
import type { Check } from './checks/support.ts';

export type { Check };

export const checks: Check[] = [
  login,
  startJob,
  inlineLimit,
  getJob,
  timestamps,
  statuses,
  executions,
  addedEndpoints,
  operationHygiene,
  security,
  errorModel,
  responseHeaders,
  servers,
  links,
  examplesValid,
  jobExamples,
  maxcutExamples,
  quboExamples,
  useCaseExamples,
];

export function checkNamed(name: string): Check {
  const check = checks.find((c) => c.name === name);
  if (!check) throw new Error(`no check named ${name}`);
  return check;
}
