// `npm run sandbox`: the sandbox on port 4010 (SANDBOX_PORT to change; SANDBOX_HOST, default 127.0.0.1),
// printing its URL and one line per request, until Ctrl-C.
import { startSandbox } from './server.ts';

const port = Number(process.env.SANDBOX_PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SANDBOX_PORT must be a port number (0 for any free port), not "${process.env.SANDBOX_PORT}"`);
  process.exit(2);
}
const sandbox = await startSandbox({
  port,
  host: process.env.SANDBOX_HOST ?? '127.0.0.1',
  onResponse: (method, path, status) => console.log(`${new Date().toISOString()} ${method} ${path} → ${status}`),
});
// Once it listens, nothing may stop it: it is stateless, so after a failure nothing is left half-done and the
// next request is answered as well as the last. (A failure to start still exits, above.)
for (const event of ['unhandledRejection', 'uncaughtException'] as const) {
  process.on(event, (error: unknown) => console.error(`${new Date().toISOString()} ${event}, the sandbox keeps running:`, error));
}
console.log(`jes sandbox (Prism mock of openapi.yaml) listening on ${sandbox.url}`);
console.log('Stateless: any well-formed bearer token is accepted, answers are the contract\'s examples (Prefer: code=…, example=… choose). See docs/sandbox.md.');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
