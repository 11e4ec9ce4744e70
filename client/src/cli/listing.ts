// `jes jobs` and `jes data-files list`: a listing with --status and --limit, read page after page.
import type { Command } from 'commander';
import type { JesClient, ListQuery, Page, Result } from '../index.ts';
import { positiveInteger, statusOf } from './arguments.ts';
import { withClient } from './context.ts';
import { must } from './errors.ts';

type Lister<S, T> = (client: JesClient, query: ListQuery<S>) => AsyncGenerator<Result<Page<T>>, void, undefined>;

/** The first `limit` items, asking for pages of up to 100 while more are wanted. */
async function firstItems<S, T>(
  client: JesClient,
  list: Lister<S, T>,
  status: S | undefined,
  limit: number,
): Promise<T[]> {
  const items: T[] = [];
  for await (const page of list(client, { ...(status !== undefined ? { status } : {}), limit: Math.min(100, limit) })) {
    items.push(...must(page).items);
    if (items.length >= limit) break;
  }
  return items.slice(0, limit);
}

/** Gives `command` the options and action of a listing of `list`, shown with `view`. */
export function listing<S extends string, T>(
  command: Command,
  statuses: readonly S[],
  list: Lister<S, T>,
  view: (items: T[]) => string,
): Command {
  return command
    .option('--status <status>', `only those in this status: ${statuses.join(', ')} (in any case)`, statusOf(statuses))
    .option('--limit <n>', 'show at most this many', positiveInteger, 20)
    .action(
      withClient(async (ctx, client, options: { status?: S; limit: number }) => {
        const items = await firstItems(client, list, options.status, options.limit);
        ctx.print(items, () => view(items));
      }),
    );
}
