// Webhooks end to end against the real reference server (started with JES_WEBHOOK_ALLOW_HOSTS=127.0.0.1, so that
// it may call a receiver on this machine): the client's webhook calls, real deliveries checked by verifyWebhook
// (the standardwebhooks package against the server's signatures), both signatures after a rotation, a refused URL,
// and `jes webhook` as a user runs it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJesClient, type WebhookPayload } from '../../src/index.ts';
import { verifyWebhook } from '../../src/verify-webhook.ts';
import { configHome, jes } from '../support/cli.ts';
import { sixNodes } from '../support/graphs.ts';
import { type Servers, users } from '../support/processes.ts';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function webhooksSuite(servers: Servers): void {
  describe('webhooks', () => {
    const deliveries: Delivery[] = [];
    let receiver: Server;
    let url: string;
    const bob = () => createJesClient({ baseUrl: servers.main, username: 'bob', password: users.bob });

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/jes`;
    });
    afterAll(async () => {
      await bob().deleteWebhook();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    });

    /**
     * The deliveries about `jobId` of `type`, each verified with `secret`, once the receiver has one (the sender is a
     * loop of the server's). Those about other jobs may be signed with a secret rotated away since.
     */
    async function deliveredAbout(jobId: string, type: string, secret: string): Promise<WebhookPayload[]> {
      for (;;) {
        const payloads = deliveries
          .filter((d) => {
            const unchecked = JSON.parse(d.body.toString()) as WebhookPayload;
            return unchecked.data.job_id === jobId && unchecked.type === type;
          })
          .map((d) => verifyWebhook(secret, d.headers, d.body));
        if (payloads.length > 0) return payloads;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it("sets the webhook, whose deliveries of a job's changes verifyWebhook accepts, and lists them", async () => {
      const client = bob();
      const before = await client.getWebhook();
      expect(before.data?.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);

      const set = await client.setWebhook({ url, events: ['job.status_changed', 'job.ended'] });
      expect(set.data).toMatchObject({ url, events: ['job.status_changed', 'job.ended'], secret: before.data!.secret });
      const id = (await client.startJob('maxcut', sixNodes, { solvers: ['exact'] })).data!.id;
      expect((await client.waitForJob(id)).data?.status).toBe('FINISHED');

      const [ended] = await deliveredAbout(id, 'job.ended', set.data!.secret);
      expect(ended!.data).toMatchObject({ job_id: id, status: 'FINISHED', job: { status: 'FINISHED' } });
      const changes = await deliveredAbout(id, 'job.status_changed', set.data!.secret);
      expect(changes.map((p) => p.data.status)).toContain('RUNNING');

      const listed = await client.listWebhookDeliveries({ limit: 100 });
      const mine = listed.data!.filter((d) => d.job_id === id);
      expect(mine.map((d) => d.type)).toContain('job.ended');
      expect(mine.every((d) => d.url === url && d.id.startsWith('msg_'))).toBe(true);
    });

    it('after a rotation, deliveries carry both signatures: the old secret and the new one each verify them', async () => {
      const client = bob();
      const old = (await client.getWebhook()).data!.secret;
      const rotated = await client.rotateWebhookSecret();
      expect(rotated.data?.secret).not.toBe(old);
      expect(rotated.data?.previous_secret_expires_at).toEqual(expect.any(String));
      const id = (await client.startJob('maxcut', sixNodes, { solvers: ['exact'] })).data!.id;
      await client.waitForJob(id);
      const [byNew] = await deliveredAbout(id, 'job.ended', rotated.data!.secret);
      const [byOld] = await deliveredAbout(id, 'job.ended', old);
      expect(byOld).toEqual(byNew);
    });

    it('refuses a URL the server will not call (422 webhook_url_refused); delete leaves no webhook but the secret', async () => {
      const client = bob();
      const refused = await client.setWebhook({ url: 'http://169.254.169.254/latest' });
      expect(refused.error).toMatchObject({ status: 422, code: 'webhook_url_refused' });
      const secret = (await client.getWebhook()).data!.secret;
      expect((await client.deleteWebhook()).data).toEqual({ deleted: 'webhook' });
      expect((await client.getWebhook()).data).toMatchObject({ url: null, secret });
    });

    describe('jes webhook', () => {
      let env: Record<string, string>;
      beforeAll(async () => {
        env = { JES_BASE_URL: servers.main, XDG_CONFIG_HOME: configHome() };
        expect((await jes(['login', '--username', 'bob', '--password-stdin'], env, users.bob)).code).toBe(0);
      });

      it('set, get, rotate, deliveries and delete, for people and with --json', async () => {
        const set = await jes(['webhook', 'set', url, '--events', 'job.ended', 'job.status_changed'], env);
        expect(set).toMatchObject({ code: 0, stderr: '' });
        expect(set.stdout).toMatch(
          new RegExp(`^Webhook set\\.\\nURL +${url}\\nEvents +job\\.ended, job\\.status_changed\\nSecret +whsec_`),
        );
        const got = JSON.parse((await jes(['--json', 'webhook', 'get'], env)).stdout);
        expect(got).toMatchObject({ url, events: ['job.ended', 'job.status_changed'] });
        const rotated = await jes(['webhook', 'rotate'], env);
        expect(rotated.stdout).toMatch(/^New secret made\.\n[\s\S]*\nPrevious secret +valid until \S+Z\n$/);
        const listed = await jes(['webhook', 'deliveries', '--limit', '5'], env);
        expect(listed.stdout).toMatch(/^ID +TYPE +JOB +STATUS +ATTEMPTS +CREATED +NEXT ATTEMPT +LAST ERROR\nmsg_/);
        expect(JSON.parse((await jes(['--json', 'webhook', 'deliveries'], env)).stdout)).toEqual(expect.any(Array));
        expect(await jes(['webhook', 'delete'], env)).toMatchObject({
          code: 0,
          stdout: expect.stringMatching(/^Webhook removed/),
        });
        expect(JSON.parse((await jes(['--json', 'webhook', 'get'], env)).stdout)).toMatchObject({ url: null });
      });

      it('a refused URL prints code: detail with a hint, exit 3; an unknown event is a usage error', async () => {
        const refused = await jes(['webhook', 'set', 'http://169.254.169.254/'], env);
        expect(refused.code).toBe(3);
        expect(refused.stderr).toMatch(
          /^webhook_url_refused: [^\n]+\n(?: {2}[^\n]+\n)*hint: [^\n]*JES_WEBHOOK_ALLOW_HOSTS/,
        );
        expect((await jes(['webhook', 'set', url, '--events', 'job.done'], env)).code).toBe(2);
      });
    });
  });
}
