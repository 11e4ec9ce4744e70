// Named prepared statements on the embedded database. PGlite's own query() parses and plans every statement again
// (an unnamed statement) and sends Parse, Describe, Bind, Describe, Execute and Sync as six calls into PostgreSQL;
// the server runs the same few dozen statements over and over, on the one connection, on the main thread. Here each
// SQL text is parsed once, under a name, and each call is one message (Bind, Describe, Execute, Sync): a job read
// took 0.42 ms where query() took 0.94 ms, and a tiny job half the main thread's time (docs/performance.md). Values
// are serialized and rows parsed as query() does, with PGlite's own serializers, parsers and protocol helpers, and
// under the same locks (a statement of its own waits for any transaction, as query() does).
import { parse, type PGlite, protocol } from '@electric-sql/pglite';

/** Describe (the unnamed portal), Execute (every row) and Sync: the same bytes on every call. */
const describeExecuteSync = Buffer.from([
  ...[0x44, 0, 0, 0, 6, 0x50, 0], // 'D', length 6, 'P', ''
  ...[0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0], // 'E', length 9, '', no row limit
  ...[0x53, 0, 0, 0, 4], // 'S', length 4
]);

/**
 * The messages of one call of a named statement, in one buffer: Bind (each value as text, a byte array in the
 * binary format, as PGlite's serializer sends them; rows in text), then Describe, Execute and Sync. PGlite's own
 * serializer copied a byte array four times over, growing its buffers as it went: a 4 MiB input took 3.3 ms to
 * serialize where one copy takes 0.3 ms.
 */
export function callMessages(
  statement: string,
  values: (string | Uint8Array | null)[],
  { binaryResults = false } = {},
): Buffer {
  const encoded = values.map((value) => (typeof value === 'string' ? Buffer.from(value, 'utf8') : value));
  const name = Buffer.from(statement, 'utf8');
  // Bind: its type and length; the portal '' and the statement, each ending in NUL; the format of each value;
  // each value's length (-1 for NULL) and bytes; no result format (all text), or one for all (binary).
  const bindLength = 4 + 1 + name.length + 1 + 2 + 2 * values.length + 2 + 2 + (binaryResults ? 2 : 0);
  const length = encoded.reduce((sum, value) => sum + 4 + (value?.length ?? 0), bindLength);
  const out = Buffer.allocUnsafe(1 + length + describeExecuteSync.length);
  let at = out.writeUInt8(0x42, 0);
  at = out.writeInt32BE(length, at);
  at = out.writeUInt8(0, at);
  at += name.copy(out, at);
  at = out.writeUInt8(0, at);
  at = out.writeInt16BE(values.length, at);
  for (const value of values) at = out.writeInt16BE(value !== null && typeof value !== 'string' ? 1 : 0, at);
  at = out.writeInt16BE(values.length, at);
  for (const value of encoded) {
    if (value === null) at = out.writeInt32BE(-1, at);
    else {
      at = out.writeInt32BE(value.length, at);
      out.set(value, at);
      at += value.length;
    }
  }
  if (binaryResults) at = out.writeInt16BE(1, out.writeInt16BE(1, at));
  else at = out.writeInt16BE(0, at);
  describeExecuteSync.copy(out, at);
  return out;
}

/** An ErrorResponse's fields (`C` the SQLSTATE, `M` the message) as an Error carrying `code`, as PGlite's are. */
function errorResponse(body: Buffer): Error {
  const fields: Record<string, string> = {};
  for (let at = 0; at < body.length && body[at] !== 0;) {
    const end = body.indexOf(0, at + 1);
    fields[String.fromCharCode(body[at]!)] = body.toString('utf8', at + 1, end);
    at = end + 1;
  }
  return Object.assign(new Error(fields.M ?? 'database error'), { code: fields.C, severity: fields.S });
}

/** The first column of each DataRow of a raw backend answer in the binary format: the bytes as stored, copied. */
export function binaryFirstColumn(raw: Uint8Array): (Uint8Array | null)[] {
  const answer = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const rows: (Uint8Array | null)[] = [];
  for (let at = 0; at + 5 <= answer.length;) {
    const type = answer[at]!;
    const end = at + 1 + answer.readInt32BE(at + 1);
    if (type === 0x44) {
      // DataRow: its field count, then each field's length (-1: NULL) and bytes.
      const size = answer.readInt32BE(at + 7);
      rows.push(size < 0 ? null : answer.subarray(at + 11, at + 11 + size).slice());
    } else if (type === 0x45) throw errorResponse(answer.subarray(at + 5, end));
    at = end;
  }
  return rows;
}

/** Statement names are unique in the process, so that two users of one PGlite never reuse one another's names. */
let named = 0;

/** `maxStatements`: distinct SQL texts kept as named statements; past it, each is parsed again every time. */
export function preparedStatements(db: PGlite, { maxStatements = 500 } = {}) {
  const { serialize } = protocol;
  const statements = new Map<string, { name: string; types: number[] }>();

  /** The named statement of `sql`, parsed and described once, with its parameters' types. */
  async function prepared(sql: string): Promise<{ name: string; types: number[] }> {
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
    return statement;
  }

  /** The values of a call, each as its type's serializer makes it (a byte array as it is). */
  const serialized = (types: number[], params: unknown[]) =>
    params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[types[i]!];
      return (serializer ? serializer(value) : String(value)) as string | Uint8Array;
    });

  /** Runs `sql` holding the query lock (the caller holds the transaction lock, or is inside a transaction). */
  async function run(sql: string, params: unknown[]): Promise<any[]> {
    const { name, types } = await prepared(sql);
    const messages = callMessages(name, serialized(types, params));
    const result = await db._runExclusiveQuery(() => db.execProtocol(messages, { syncToFs: false }));
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
    /**
     * A statement of its own whose rows are one column of bytes, answered in the binary format: as text, each
     * byte came as two hex digits, decoded twice over (1 MiB took tens of ms of the main thread).
     */
    bytes: async (sql: string, params: unknown[]) => {
      await db._checkReady();
      return db._runExclusiveTransaction(async () => {
        const { name, types } = await prepared(sql);
        const messages = callMessages(name, serialized(types, params), { binaryResults: true });
        return binaryFirstColumn(await db._runExclusiveQuery(() => db.execProtocolRaw(messages, { syncToFs: false })));
      });
    },
  };
}
