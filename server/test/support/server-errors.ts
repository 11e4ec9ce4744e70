// Every 5xx a test's client received, for no-server-errors.ts to check after each file: a module of its own, so that
// the check, which runs in every test file, does not load the server (server.ts) into files that never start one.
export const serverErrors: string[] = [];
