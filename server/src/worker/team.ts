// A run's team: the solver pool may run one request on several threads, each member an independent run of the
// same solver with its own seed, the best answer kept (team-answers.ts). Here: the pool's records of its threads,
// runs and members, how many threads a run gets, each member's seed, and which members a team lends to runs that
// wait. pool.ts starts, stops and times them.
import type { Worker } from 'node:worker_threads';
import type { SolverOutput } from '../core/use-case.ts';
import { findSolver, findUseCase } from '../use-cases.ts';
import type { TeamAnswers } from './team-answers.ts';

export interface RunRequest {
  /** The use case whose solver runs (solvers are named per use case). */
  problemId: string;
  solver: string;
  /** The use case's prepared input (UseCase.decode), copied to the thread by structured clone. */
  input: unknown;
  timeLimitSeconds: number;
  seed: number;
  /** The run's parameters as the API takes them (SolverChoice.params): `max_iterations` becomes the solver's `maxIterations`. */
  params?: Record<string, unknown>;
}

export interface Thread {
  worker: Worker;
  member: Member | undefined;
  /** Removed from the pool: terminated by us or exited; its events are ignored from then on. */
  gone: boolean;
  /** The last 'error' event, reported when the thread exits. */
  error: unknown;
}

export interface Job {
  request: RunRequest;
  answers: TeamAnswers;
  resolve: (result: SolverOutput) => void;
  reject: (error: Error) => void;
  settled: boolean;
  /** Its team, fixed when it leaves the queue: member i runs on its own thread with the seed memberSeed(seed, i). */
  members: Member[];
  /** Why every member's stop flag was set, if it was: 'answered' when a member's run ended by itself. */
  stopReason: 'cancel' | 'overrun' | 'answered' | undefined;
}

export interface Member {
  /** Its messages' id, unique in the pool. */
  id: number;
  job: Job;
  index: number;
  stop: SharedArrayBuffer;
  /** The thread running it, until it answers, its thread is removed, or it is stopped before it started. */
  thread: Thread | undefined;
  /** Its thread has taken it up (the 'started' message): its solver runs. */
  started: boolean;
  /** Its stop flag is set: for its job's stopReason, or lent to a job in the queue. */
  stopping: boolean;
  /** Its job awaits nothing more from it: it answered, its thread died or was terminated, or it never started. */
  done: boolean;
  /** Before it starts, how long its thread may take to take it up; then its time limit and grace. */
  deadlineTimer: NodeJS.Timeout | undefined;
  /** Once it is stopping: how long it has to answer. */
  killTimer: NodeJS.Timeout | undefined;
}

export function newMember(id: number, job: Job, index: number): Member {
  const stop = new SharedArrayBuffer(4);
  const timers = { deadlineTimer: undefined, killTimer: undefined };
  return { id, job, index, stop, thread: undefined, started: false, stopping: false, done: false, ...timers };
}

export function clearTimers(member: Member): void {
  if (member.deadlineTimer) clearTimeout(member.deadlineTimer);
  if (member.killTimer) clearTimeout(member.killTimer);
  member.deadlineTimer = member.killTimer = undefined;
}

/**
 * How many threads a run starts on: its solver's `threads` (undefined: 1), at most `perRun` (JES_EXECUTION_THREADS)
 * and what is free once every run still waiting behind it has one, and never less than 1. A run with `max_iterations`
 * is meant to be repeatable, and the best of several seeds is not what one seed gives: it runs on one thread.
 */
export function teamSize(request: RunRequest, free: number, waiting: number, perRun: number): number {
  if (request.params?.max_iterations !== undefined) return 1;
  const useCase = findUseCase(request.problemId);
  const solver = useCase && findSolver(useCase, request.solver);
  return Math.max(1, Math.min(solver?.threads ?? 1, perRun, free - waiting));
}

/** Member 0 runs with the run's own seed (a one-thread run is what it always was); the others with seeds apart. */
export function memberSeed(seed: number, index: number): number {
  return seed + index * 65537;
}

/**
 * The members to stop so that `needed` more runs get a thread (the threads of members already stopping count as
 * coming free): one at a time from the team with the most members still running, and of those a member whose
 * solver runs (its thread has loaded) with the highest index. Member 0, on the run's own seed, is never lent.
 */
export function membersToLend(busy: readonly Member[], needed: number): Member[] {
  const teams = new Map<Job, Member[]>();
  for (const member of busy) {
    if (member.stopping) needed--;
    else teams.set(member.job, [...(teams.get(member.job) ?? []), member]);
  }
  const lent: Member[] = [];
  while (lent.length < needed) {
    let largest: Member[] = [];
    for (const members of teams.values()) if (members.length > largest.length) largest = members;
    if (largest.length < 2) break;
    // Of two members running, at least one is not member 0.
    const member = largest
      .filter((m) => m.index > 0)
      .reduce((a, b) => (a.started !== b.started ? (a.started ? a : b) : a.index > b.index ? a : b));
    largest.splice(largest.indexOf(member), 1);
    lent.push(member);
  }
  return lent;
}
