// jes webhook get | set <url> [--events …] | delete | rotate | deliveries: your webhook (the contract's Webhooks
// tag), the URL the service tells when your jobs end or change status, its signing secret and its recent deliveries.
import { type Command, Option } from 'commander';
import type { WebhookEventType } from '../../index.ts';
import { positiveInteger } from '../arguments.ts';
import { withClient } from '../context.ts';
import { must } from '../errors.ts';
import { deliveriesView, webhookView } from '../views.ts';

export const webhookEvents = ['job.ended', 'job.status_changed'] as const satisfies readonly WebhookEventType[];

export function webhookCommands(program: Command): void {
  const group = program
    .command('webhook')
    .description(
      'your webhook: the URL told when your jobs end (or change status), its signing secret, its deliveries',
    );

  group
    .command('get')
    .description('show your webhook: its URL, the events it is told of and its signing secret')
    .action(
      withClient(async (ctx, client) => {
        const webhook = must(await client.getWebhook());
        ctx.print(webhook, () => webhookView(webhook));
      }),
    );

  group
    .command('set')
    .description('set the URL told of your jobs (http or https, a public address), replacing any before')
    .argument('<url>')
    .addOption(new Option('--events <type...>', 'what to tell it of (default: job.ended)').choices(webhookEvents))
    .action(
      withClient(async (ctx, client, url: string, options: { events?: WebhookEventType[] }) => {
        const events = options.events ? [...new Set(options.events)] : undefined;
        const webhook = must(await client.setWebhook({ url, ...(events ? { events } : {}) }));
        ctx.print(webhook, () => `Webhook set.\n${webhookView(webhook)}`);
      }),
    );

  group
    .command('delete')
    .description('remove your webhook: no more deliveries (its secret stays)')
    .action(
      withClient(async (ctx, client) => {
        const deleted = must(await client.deleteWebhook());
        ctx.print(deleted, () => 'Webhook removed; its secret stays (jes webhook get).\n');
      }),
    );

  group
    .command('rotate')
    .description('make a new signing secret; for 24 hours deliveries carry the old signature too')
    .action(
      withClient(async (ctx, client) => {
        const webhook = must(await client.rotateWebhookSecret());
        ctx.print(webhook, () => `New secret made.\n${webhookView(webhook)}`);
      }),
    );

  group
    .command('deliveries')
    .description('your most recent deliveries, newest first: attempts, status, the last error')
    .option('--limit <n>', 'show at most this many (up to 100)', positiveInteger, 20)
    .action(
      withClient(async (ctx, client, options: { limit: number }) => {
        const deliveries = must(await client.listWebhookDeliveries({ limit: Math.min(100, options.limit) }));
        ctx.print(deliveries, () => deliveriesView(deliveries));
      }),
    );
}
