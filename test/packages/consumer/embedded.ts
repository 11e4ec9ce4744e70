// The other packages' declarations, used from code: the server and the sandbox started in-process, the
// conformance suite run against the server.
import { runConformance, type Report } from '@jes/conformance';
import { startSandbox } from '@jes/sandbox';
import { readConfig, startServer } from '@jes/server';

export async function checkOwnServer(): Promise<Report> {
  const server = await startServer(
    readConfig({ PORT: '0', JES_DATA_DIR: 'memory:', JES_USERS: 'demo:a-long-password' }),
  );
  const sandbox = await startSandbox({ port: 0 });
  await sandbox.close();
  const report = await runConformance({ baseUrl: server.url, username: 'demo', password: 'a-long-password' });
  await server.close();
  return report;
}
