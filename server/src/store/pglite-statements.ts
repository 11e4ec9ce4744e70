// Named prepared statements on the embedded database. PGlite's own query() parses and plans every statement again
// (an unnamed statement) and sends Parse, Describe, Bind, Describe, Execute and Sync as six calls into PostgreSQL;
// the server runs the same few dozen statements over and over, on the one connection, on the main thread. Here each
// SQL text is parsed once, under a name, and each call is one message (Bind, Describe, Execute, Sync): a job read
// took 0.42 ms where query() took 0.94 ms, and a tiny job half the main thread's time (docs/performance.md). Values
// are serialized and rows parsed as query() does, with PGlite's own serializers, parsers and protocol helpers, and
// under the same locks (a statement of its own waits for any transaction, as query() does).
import { parse, type PGlite, protocol } from '@electric-sql/pglite';

/** Statement names are unique in the process, so that two users of one PGlite never reuse one another's names. */
let named = 0;

/** `maxStatements`: distinct SQL texts kept as named statements; past it, each is parsed again every time. */
export function preparedStatements(db: PGlite, { maxStatements = 500 } = {}) {
  const { serialize } = protocol;
  const statements = new Map<string, { name: string; types: number[] }>();

  /** Runs `sql` holding the query lock (the caller holds the transaction lock, or is inside a transaction). */
  async function run(sql: string, params: unknown[]): Promise<any[]> {
    let statement = statements.get(sql);
    if (!statement) {
      // Past the bound (there should be no such number of distinct texts), an unnamed statement, parsed each time.
      const name = statements.size < maxStatements ? `jes_${++named}` : '';
      const described = await db._runExclusiveQuery(() =>
        db.execProtocol(
          Buffer.concat([
            serialize.parse({ name, text: sql }),
            serialize.describe({ type: 'S', name }),
            serialize.sync(),
          ]),
          { syncToFs: false },
        ),
      );
      statement = { name, types: parse.parseDescribeStatementResults(described.messages) };
      if (name) statements.set(sql, statement);
    }
    const { name, types } = statement;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[types[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const result = await db._runExclusiveQuery(() =>
      db.execProtocol(
        Buffer.concat([
          serialize.bind({ statement: name, values: values as string[] }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      ),
    );
    return parse.parseResults(result.messages, db.parsers)[0]?.rows ?? [];
  }

  return {
    /** A statement of its own (PGlite's query() outside a transaction): waits for any transaction to end. */
    query: async (sql: string, params: unknown[] = []) => {
      await db._checkReady(); // refuses once the database is closing, as query() does
      return db._runExclusiveTransaction(async () => {
        const rows = await run(sql, params);
        await db.syncToFs();
        return rows;
      });
    },
    /** A statement inside a transaction that holds the transaction lock. */
    inTransaction: (sql: string, params: unknown[] = []) => run(sql, params),
  };
}
