// jes data-files list | upload <file> | show <id> | delete <id>.
import { Argument, type Command, Option } from 'commander';
import type { DataFile } from '../../index.ts';
import { positiveInteger } from '../arguments.ts';
import { context } from '../context.ts';
import { must } from '../errors.ts';
import { uploadFromPath } from '../files.ts';
import { dataFilesView, dataFileView } from '../views.ts';
import { problemIds } from './submit.ts';

export function dataFileCommands(program: Command): void {
  const group = program.command('data-files').description('upload inputs once (up to 100 MiB) and start jobs from them');

  group
    .command('list')
    .description('list your data files, newest first')
    .addOption(new Option('--status <status>', 'only data files in this status').choices(['PROCESSING', 'READY', 'INVALID']))
    .option('--limit <n>', 'show at most this many', positiveInteger, 20)
    .action(async (options: { status?: DataFile['status']; limit: number }, command: Command) => {
      const ctx = context(command);
      const files: DataFile[] = [];
      for await (const page of (await ctx.client()).listDataFiles({ ...(options.status ? { status: options.status } : {}), limit: Math.min(100, options.limit) })) {
        files.push(...must(page).items);
        if (files.length >= options.limit) break;
      }
      const shown = files.slice(0, options.limit);
      ctx.print(shown, () => dataFilesView(shown));
    });

  group
    .command('upload')
    .description('upload a graph file (JSON or edge list); the service validates it in the background')
    .argument('<file>')
    .addOption(new Option('--problem <id>', 'the use case it is for').choices(problemIds).default('maxcut'))
    .option('--name <name>', 'a name for it (default: the file name)')
    .option('--description <text>', 'a description')
    .action(async (file: string, options: { problem: (typeof problemIds)[number]; name?: string; description?: string }, command: Command) => {
      const ctx = context(command);
      const uploaded = await uploadFromPath(await ctx.client(), options.problem, file, options);
      ctx.print(uploaded, () => `Uploaded ${uploaded.name} as data file ${uploaded.id} (${uploaded.status}).\nStart a job from it with: jes submit ${uploaded.problem_id} --data-file ${uploaded.id}\n`);
    });

  group
    .command('show')
    .description('show a data file and its validation status')
    .addArgument(new Argument('<identifier>'))
    .action(async (id: string, _options: object, command: Command) => {
      const ctx = context(command);
      const file = must(await (await ctx.client()).getDataFile(id));
      ctx.print(file, () => dataFileView(file));
    });

  group
    .command('delete')
    .description('delete a data file (not while a job that has not ended uses it)')
    .addArgument(new Argument('<identifier>'))
    .action(async (id: string, _options: object, command: Command) => {
      const ctx = context(command);
      const deleted = must(await (await ctx.client()).deleteDataFile(id));
      ctx.print(deleted, () => `Deleted data file ${id}.\n`);
    });
}
