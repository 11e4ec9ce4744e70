import { runConformance } from '../src/index.ts';
import { credentials, printed, startReference, webhookHosts, webhookListen } from './support/targets.ts';
const server = await startReference(webhookHosts);
try {
  const only = process.argv.slice(2);
  const t = Date.now();
  const report = await runConformance({
    baseUrl: server.url,
    ...credentials,
    ...webhookListen,
    profile: 'full',
    ...(only.length ? { only } : {}),
  });
  console.log(printed(report));
  for (const r of report.results) for (const f of r.failures.slice(0, 5)) console.log(r.name, '✗', f.message);
  for (const r of report.results) if (r.notes.length) console.log(r.name, 'notes:', r.notes.join(' | '));
  console.log('ms', Date.now() - t);
} finally {
  await server.stop();
}
