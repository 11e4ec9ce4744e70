#!/usr/bin/env node
// `jes-server` (or `jes-server serve`): the API server with solver workers. `jes-server worker`: solver
// workers only, against DATABASE_URL. Settings come from the environment (see README).
import { parseArgs } from 'node:util';
import { ConfigError, readConfig } from './config.ts';
import type { Listening } from './listen.ts';
import { createLogger } from './logger.ts';
import { startServer, startWorker } from './main.ts';
import { guardProcess } from './process-guard.ts';

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const command = positionals[0] ?? 'serve';
if (command !== 'serve' && command !== 'worker') {
  console.error(`usage: jes-server [serve|worker]  (got "${command}")`);
  process.exit(2);
}

/** Where it listens, and where a listen on the loopback alone can be opened up (HOST). */
function where({ url, address, port, allInterfaces }: Listening): string {
  if (allInterfaces) return `${url} (on every interface: ${address}, port ${port})`;
  if (/^(127\.|::1$)/.test(address)) return `${url} (this machine only; HOST=0.0.0.0 listens on every interface)`;
  return url;
}

try {
  const config = readConfig();
  const logger = createLogger(config);
  guardProcess(logger);
  let running: { close(): Promise<void> };
  if (command === 'serve') {
    const server = await startServer(config, logger);
    console.log(
      `jes server listening on ${where(server.listening)}\nAPI reference at ${server.url}/docs, contract at ${server.url}/openapi.yaml\nDashboard at ${server.url}/app`,
    );
    if (server.demoPassword)
      console.log(
        `created user "demo" with password "${server.demoPassword}" (shown once; set JES_USERS to choose users)`,
      );
    running = server;
  } else {
    const worker = await startWorker(config, logger);
    console.log(`jes worker running ${worker.threads} solver threads`);
    running = worker;
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    running.close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`jes-server: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
