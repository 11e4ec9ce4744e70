// The embedded database's named prepared statements (store/pglite-statements.ts) answer as PGlite's query() does:
// the same values both ways (text, numbers, jsonb, arrays, bytea, null), the same errors with their SQLSTATE (the
// retry and idempotency code reads it), a transaction rolled back by a failed statement, the same answers past the
// bound of named statements, and a refusal, not a hang, once the database is closed.
import { PGlite, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMessages, preparedStatements } from '../src/store/pglite-statements.ts';

describe('named prepared statements on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create('memory://', {
      serializers: { 17: (value: Uint8Array) => value as unknown as string },
      parsers: { 17: (text: string) => Buffer.from(text.slice(2), 'hex') },
    });
    await db.exec(
      `CREATE TABLE t (id text PRIMARY KEY, n integer, x double precision, doc jsonb, tags text[], raw bytea)`,
    );
  });
  afterAll(() => db?.close());

  it('reads bytea in the binary format as the bytes stored: empty, NULL, every byte value, 4 MiB, and its errors', async () => {
    const statements = preparedStatements(db);
    const big = Buffer.alloc(4 * 1024 * 1024, 0xa5);
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    for (const [id, raw] of [
      ['bytes-empty', Buffer.alloc(0)],
      ['bytes-null', null],
      ['bytes-every', every],
      ['bytes-big', big],
    ] as const)
      await statements.query('INSERT INTO t (id, raw) VALUES ($1, $2)', [id, raw]);
    const read = (id: string) => statements.bytes('SELECT raw FROM t WHERE id = $1', [id]);
    expect((await read('bytes-empty')).map((b) => b && Buffer.from(b))).toEqual([Buffer.alloc(0)]);
    expect(await read('bytes-null')).toEqual([null]);
    expect(Buffer.from((await read('bytes-every'))[0]!)).toEqual(every);
    expect(Buffer.from((await read('bytes-big'))[0]!).equals(big)).toBe(true);
    expect(await read('no-such-row')).toEqual([]);
    expect(
      (await statements.bytes('SELECT raw FROM t WHERE id LIKE $1 ORDER BY id', ['bytes-%'])).map(
        (b) => b?.length ?? -1,
      ),
    ).toEqual([big.length, 0, every.length, -1]);
    const failed = await statements.bytes('SELECT raw::bytea FROM t WHERE n = 1 / $1::integer', [0]).catch((e) => e);
    expect([failed.code, failed.message]).toEqual(['22012', 'division by zero']);
    // The lock is released after an error: the next statement runs.
    expect(await read('bytes-empty')).toHaveLength(1);
  });

  it('round-trips values as query() does, run after run of the same statement', async () => {
    const statements = preparedStatements(db);
    const insert = 'INSERT INTO t (id, n, x, doc, tags, raw) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *';
    const rows = [
      ['a', 1, 0.5, JSON.stringify({ k: ['é', 1] }), ['x', 'y'], Buffer.from([0, 1, 255])],
      ['b', null, null, null, null, null],
      ["c'; DROP TABLE t; --", -7, 1e-9, '"text"', [], Buffer.alloc(0)],
    ];
    for (const values of rows) {
      const [mine] = await statements.query(insert, values);
      const [theirs] = (await db.query<any>('SELECT * FROM t WHERE id = $1', [values[0]])).rows;
      expect(mine).toEqual(theirs);
    }
    expect(await statements.query('SELECT id, n FROM t WHERE n > $1 ORDER BY id', [0])).toEqual([{ id: 'a', n: 1 }]);
    expect(await statements.query('SELECT id, n FROM t WHERE n > $1 ORDER BY id', [-10])).toEqual([
      { id: 'a', n: 1 },
      { id: "c'; DROP TABLE t; --", n: -7 },
    ]);
  });

  // A call's messages are built in one buffer rather than by PGlite's serializer (which copied a byte array four
  // times): they must be the very bytes that serializer makes, whatever the values.
  it("builds a call's messages byte for byte as PGlite's serializer does", () => {
    const { serialize } = protocol;
    const cases: (string | Uint8Array | null)[][] = [
      [],
      ['', null, 'é € 😀 \u{10FFFF}', Buffer.from([0, 1, 255]), new Uint8Array(0)],
      [Buffer.alloc(300_000, 7), '42', null],
    ];
    for (const values of cases) {
      const theirs = Buffer.concat([
        serialize.bind({ statement: 'jes_7', values: values as string[] }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      expect(callMessages('jes_7', values).equals(theirs)).toBe(true);
    }
  });

  it('stores and reads back a 4 MiB byte array', async () => {
    const statements = preparedStatements(db);
    const raw = Buffer.alloc(4 * 1024 * 1024 - 1);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) & 255;
    await statements.query('INSERT INTO t (id, raw) VALUES ($1, $2)', ['big', raw]);
    const [row] = await statements.query('SELECT raw FROM t WHERE id = $1', ['big']);
    expect(Buffer.compare(row.raw, raw)).toBe(0);
  });

  it('fails with the SQLSTATE, and a failed statement rolls its transaction back', async () => {
    const statements = preparedStatements(db);
    const insert = 'INSERT INTO t (id, n) VALUES ($1, $2)';
    await statements.query(insert, ['dup', 1]);
    await expect(statements.query(insert, ['dup', 2])).rejects.toMatchObject({ code: '23505' });
    await expect(
      db.transaction(async () => {
        await statements.inTransaction(insert, ['in-tx', 1]);
        await statements.inTransaction(insert, ['dup', 3]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await statements.query('SELECT id FROM t WHERE id = ANY($1) ORDER BY id', [['dup', 'in-tx']])).toEqual([
      { id: 'dup' },
    ]);
  });

  it('answers the same past its bound of named statements', async () => {
    const statements = preparedStatements(db, { maxStatements: 2 });
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 5; i++) {
        const sql = `SELECT $1::int + ${i} AS sum`;
        expect(await statements.query(sql, [round])).toEqual([{ sum: round + i }]);
      }
  });

  it('refuses once the database is closed', async () => {
    const other = await PGlite.create('memory://');
    const statements = preparedStatements(other);
    expect(await statements.query('SELECT $1::text AS v', ['up'])).toEqual([{ v: 'up' }]);
    await other.close();
    await expect(statements.query('SELECT $1::text AS v', ['down'])).rejects.toThrow(/closed/i);
  });
});
