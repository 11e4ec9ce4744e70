// jes problems: the use cases the service runs, with their solvers and limits.
import type { Command } from 'commander';
import { withClient } from '../context.ts';
import { must } from '../errors.ts';
import { problemsView } from '../views.ts';

export function problemsCommand(program: Command): void {
  program
    .command('problems')
    .description('list the use cases, their solvers and limits')
    .action(
      withClient(async (ctx, client) => {
        const useCases = must(await client.listProblems());
        ctx.print(useCases, () => problemsView(useCases));
      }),
    );
}
