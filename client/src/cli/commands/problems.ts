// jes problems: the use cases the service runs, with their solvers and limits.
import type { Command } from 'commander';
import { context } from '../context.ts';
import { must } from '../errors.ts';
import { problemsView } from '../views.ts';

export function problemsCommand(program: Command): void {
  program
    .command('problems')
    .description('list the use cases, their solvers and limits')
    .action(async (_options: object, command: Command) => {
      const ctx = context(command);
      const useCases = must(await (await ctx.client()).listProblems());
      ctx.print(useCases, () => problemsView(useCases));
    });
}
