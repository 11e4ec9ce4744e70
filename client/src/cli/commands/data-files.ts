// jes data-files list | upload <file> | show <id> | delete <id>.
import { Argument, type Command, Option } from 'commander';
import { dataFileStatuses } from '../arguments.ts';
import { withClient } from '../context.ts';
import { must } from '../errors.ts';
import { uploadFromPath } from '../files.ts';
import { listing } from '../listing.ts';
import { dataFilesView, dataFileView } from '../views.ts';
import { problemIds } from './submit.ts';

export function dataFileCommands(program: Command): void {
  const group = program
    .command('data-files')
    .description('upload inputs once (up to 100 MiB) and start jobs from them');

  listing(
    group.command('list').description('list your data files, newest first'),
    dataFileStatuses,
    (client, query) => client.listDataFiles(query),
    dataFilesView,
  );

  group
    .command('upload')
    .description(
      'upload an input file (maxcut: JSON or an edge list; qubo: JSON or a qbsolv .qubo file); the service validates it in the background',
    )
    .argument('<file>')
    .addOption(new Option('--problem <id>', 'the use case it is for').choices(problemIds).default('maxcut'))
    .option('--name <name>', 'a name for it (default: the file name)')
    .option('--description <text>', 'a description')
    .action(
      withClient(
        async (
          ctx,
          client,
          file: string,
          options: { problem: (typeof problemIds)[number]; name?: string; description?: string },
        ) => {
          const { problem, ...naming } = options;
          const uploaded = await uploadFromPath(client, problem, file, { ...naming, showProgress: !ctx.json });
          ctx.print(
            uploaded,
            () =>
              `Uploaded ${uploaded.name} as data file ${uploaded.id} (${uploaded.status}).\nStart a job from it with: jes submit ${uploaded.problem_id} --data-file ${uploaded.id}\n`,
          );
        },
      ),
    );

  group
    .command('show')
    .description('show a data file and its validation status')
    .addArgument(new Argument('<identifier>'))
    .action(
      withClient(async (ctx, client, id: string) => {
        const file = must(await client.getDataFile(id));
        ctx.print(file, () => dataFileView(file));
      }),
    );

  group
    .command('delete')
    .description('delete a data file (not while a job that has not ended uses it)')
    .addArgument(new Argument('<identifier>'))
    .action(
      withClient(async (ctx, client, id: string) => {
        const deleted = must(await client.deleteDataFile(id));
        ctx.print(deleted, () => `Deleted data file ${id}.\n`);
      }),
    );
}
