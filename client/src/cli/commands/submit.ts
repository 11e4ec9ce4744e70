// jes submit <problem> <file> [--solver …] [--time-limit …] [--wait]: JSON under the inline limit goes
// inline; any other file (a max-cut edge list, a qbsolv .qubo file), or JSON at the limit or above, is uploaded
// as a data file and the job started from it: the service tells the formats apart.
// The client sends an Idempotency-Key and retries with it; --idempotency-key lets a script re-run a submit safely.
import { basename } from 'node:path';
import { Argument, type Command } from 'commander';
import {
  MAX_INLINE_BYTES,
  type JesClient,
  type ProblemId,
  type ProblemInputs,
  type StartJobOptions,
  type StartedJob,
} from '../../index.ts';
import { derivedKey, newIdempotencyKey } from '../../retry.ts';
import { collect, idempotencyKey, positiveNumber } from '../arguments.ts';
import { withClient } from '../context.ts';
import { must, problemError, usageError } from '../errors.ts';
import { fileSize, looksLikeJson, readJson, uploadFromPath } from '../files.ts';
import { cancelOnInterruptHelp, waitAndShow } from './jobs.ts';

export const problemIds = ['maxcut', 'qubo'] as const satisfies readonly ProblemId[];

interface SubmitOptions {
  dataFile?: string;
  solver?: string[];
  timeLimit?: number;
  wait?: boolean;
  cancelOnInterrupt?: boolean;
  idempotencyKey?: string;
}

/**
 * Starts the job from a data file. When the file failed validation, the problem tells why (the data file's
 * own error and its pointers) rather than where to look it up.
 */
async function startFromDataFile(
  client: JesClient,
  problemId: ProblemId,
  dataFileId: string,
  options: StartJobOptions,
): Promise<StartedJob> {
  const start = await client.startJob(problemId, { data_file_identifier: dataFileId }, options);
  if (start.error?.code !== 'data_file_invalid') return must(start);
  const file = await client.getDataFile(dataFileId);
  const reason = file.data?.error;
  if (!reason) return must(start);
  const detail = `Data file ${dataFileId} failed validation: ${reason.detail}`;
  throw problemError({ ...start.error, detail, ...(reason.errors ? { errors: reason.errors } : {}) });
}

export function submitCommand(program: Command): void {
  program
    .command('submit')
    .description(
      'start a job from an input file: for maxcut a graph as JSON ({"num_nodes", "adj_matrix"}) or an edge list ' +
        '(Gset/rudy: "n m", then "i j w" lines); for qubo JSON ({"num_variables", "q_matrix"}) or a qbsolv .qubo file',
    )
    .addArgument(new Argument('<problem>', 'the use case').choices(problemIds))
    .argument('[file]', 'the input, for example graph.json, G22.txt or four-variables.qubo')
    .option('--data-file <identifier>', 'start from a data file uploaded before, instead of a file')
    .option(
      '--solver <name>',
      'a solver to run; repeat for several (default: the service chooses for the input)',
      collect,
    )
    .option('--time-limit <seconds>', 'the time limit of each solver run', positiveNumber)
    .option('--wait', 'then wait for the job, showing its progress, and show its result')
    .option('--cancel-on-interrupt', `with --wait: ${cancelOnInterruptHelp}`)
    .option(
      '--idempotency-key <key>',
      'run this submit at most once: the same key again within 24 hours answers the job it started (default: a new key)',
      idempotencyKey,
    )
    .action(
      withClient(
        async (
          ctx,
          client,
          problemId: (typeof problemIds)[number],
          file: string | undefined,
          options: SubmitOptions,
        ) => {
          if ((file === undefined) === (options.dataFile === undefined))
            throw usageError('give either a file or --data-file <identifier>');
          if (options.cancelOnInterrupt && !options.wait) throw usageError('--cancel-on-interrupt goes with --wait');
          const key = options.idempotencyKey ?? newIdempotencyKey();
          const startOptions: StartJobOptions = {
            ...(options.solver ? { solvers: options.solver } : {}),
            ...(options.timeLimit !== undefined ? { timeLimitSeconds: options.timeLimit } : {}),
            idempotencyKey: key,
          };
          let started: StartedJob;
          let how: string;
          if (file === undefined) {
            started = await startFromDataFile(client, problemId, options.dataFile!, startOptions);
            how = `data file ${options.dataFile}`;
          } else if ((await fileSize(file)) < MAX_INLINE_BYTES && (await looksLikeJson(file))) {
            started = must(
              await client.startJob(problemId, (await readJson(file)) as ProblemInputs[ProblemId], startOptions),
            );
            how = started.dataFile ? `${basename(file)} uploaded as data file ${started.dataFile.id}` : 'input inline';
          } else {
            const upload = { idempotencyKey: derivedKey(key, 'upload'), showProgress: !ctx.json };
            const dataFile = await uploadFromPath(client, problemId, file, upload);
            started = await startFromDataFile(client, problemId, dataFile.id, startOptions);
            how = `${basename(file)} uploaded as data file ${dataFile.id}`;
          }
          if (options.wait) {
            if (!ctx.json) process.stderr.write(`Started job ${started.id} (${problemId}, ${how}).\n`);
            await waitAndShow(ctx, client, started.id, options);
            return;
          }
          // The job as every command prints it (with --json, the same shape as jes status), just after its start.
          const job = ctx.json ? must(await client.getJob(started.id), { job: started.id }) : undefined;
          ctx.print(
            job,
            () => `Started job ${started.id} (${problemId}, ${how}).\nFollow it with: jes wait ${started.id}\n`,
          );
        },
      ),
    );
}
