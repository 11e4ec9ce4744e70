// JES_USERS as the tests write it, from a name → password record: the server's own tests (in this process or a
// child), the client's, the fuzz's and the benchmarks'.

/** JES_USERS for `users` (name → password): `alice:secret,bob:other`. */
export const usersSetting = (users: Record<string, string>): string =>
  Object.entries(users)
    .map(([name, password]) => `${name}:${password}`)
    .join(',');
