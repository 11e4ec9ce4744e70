// @jes/server as a library: start the reference server or a worker in your own process (a test harness, an
// embedding), with settings from readConfig (the environment, as `jes-server` reads it) or your own.
export { ConfigError, type Config, readConfig } from './config/config.ts';
export type { Listening } from './start/listen.ts';
export { type Running, startServer, startWorker } from './start/main.ts';
