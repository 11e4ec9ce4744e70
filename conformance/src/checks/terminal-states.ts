// terminal_states: terminal means terminal. The contract says a job's terminal status never changes (JobStatus), as
// the job APIs it follows promise (D-Wave's, Azure Quantum's); nor do what the job ended with and a deletion. Every
// answer of the run, whichever check asked, is held to the first reading of each job the run saw end and to every
// deletion it made (terminal/watch.ts); a few of them are read again between checks, and all of them, up to a bound,
// here (terminal/rereads.ts). A run that saw no job end or deleted nothing (`--only terminal_states`) makes its own:
// a short job, read again a second after its end and then deleted, and a data file deleted.
import type { CheckContext } from '../context.ts';
import { jsonDataFile } from '../inputs.ts';
import { pollJob, startJob, uploadDataFile } from '../jobs.ts';
import { rereadBounds, reread } from '../terminal/rereads.ts';
import { type Check, statelessSkip } from './check.ts';

/** How long the check's own job is left ended before it is read again. */
export const pauseMs = 1000;

/** A job of the first use case's example, ended, read again after `pauseMs`, then deleted; and a data file deleted. */
async function ownEnded(ctx: CheckContext): Promise<void> {
  const [useCase] = await ctx.fixtures.useCases(ctx);
  // The exact solver ends at once on the example (the heuristic runs its whole time limit); the smallest limit.
  const solver = (useCase!.exact ?? useCase!.heuristic).name;
  const { id } = await startJob(
    ctx,
    useCase!.id,
    useCase!.example,
    { solver, time_limit_seconds: 0.1 },
    'starting a short job to read again once it has ended',
  );
  const file = await uploadDataFile(
    ctx,
    useCase!.id,
    jsonDataFile(useCase!.example, `${ctx.runId}/${useCase!.id}/terminal_states`),
    'terminal-states.json',
  );
  await pollJob(ctx, id, { timeoutMs: 30_000 });
  ctx.expectStatus(
    await ctx.send({ method: 'DELETE', path: `/data_file/${file.id}` }),
    204,
    'deleting a data file no job uses',
  );
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  await ctx.send({ method: 'GET', path: `/job/${id}` });
  await ctx.send({ method: 'GET', path: `/job/${id}/output` });
  ctx.expectStatus(await ctx.send({ method: 'DELETE', path: `/job/${id}` }), 204, 'deleting an ended job');
}

export const terminalStates: Check = {
  name: 'terminal_states',
  description:
    'A job the run saw end reads the same ever after, in any later answer of any check and when read again through the run and at its end: its status, executions and results, instants and output (its links aside); a job or data file the run deleted stays gone (404 with its code).',
  operations: [
    'getJob',
    'getJobOutput',
    'listJobs',
    'deleteJob',
    'startMaxCutJob',
    'startQuboJob',
    'uploadDataFile',
    'getDataFile',
    'listDataFiles',
    'deleteDataFile',
  ],
  skip: ({ profile }) => (profile === 'sandbox' ? statelessSkip : undefined),
  async run(ctx) {
    const terminals = ctx.terminals;
    if (!terminals) return ctx.skip('the run watches no terminal state');
    const { watch } = terminals;
    try {
      if (!watch.endedSeen || !watch.deletedSeen) await ownEnded(ctx);
      const { jobs, gone } = await reread((spec) => ctx.send(spec), watch, rereadBounds.atEnd);
      const { rounds, ...between } = terminals.betweenChecks;
      ctx.note(
        `${watch.endedSeen} job${watch.endedSeen === 1 ? '' : 's'} seen ended and ${watch.deletedSeen} deletion${watch.deletedSeen === 1 ? '' : 's'} in the run; read again ${rounds ? `in ${rounds} round${rounds === 1 ? '' : 's'} between checks (${between.jobs} jobs, ${between.gone} gone) and ` : ''}at the end (${jobs} jobs, ${gone} gone)`,
      );
    } finally {
      terminals.stop();
      ctx.requests += terminals.requests;
      for (const failure of watch.failures) ctx.fail(failure.message, failure.exchange);
      for (const note of watch.notes) ctx.note(note);
      const repeated = watch.repeatedNote();
      if (repeated) ctx.note(repeated);
    }
  },
};
