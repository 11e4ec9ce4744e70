// A span around every statement, in one place: the database the server runs on, wrapped once at start-up when
// tracing is on. A statement gets its span (`db.query`: its text, which holds $n placeholders, never the values)
// only inside a recorded span, a request's or a job's: the worker's polls and heartbeats, retention and the like,
// run outside any, would otherwise make a trace of one span several times a second. A transaction is a span of its
// own (`db.transaction`) with its statements as children.
import { type Attributes, SpanKind } from '@opentelemetry/api';
import type { Database, Queryable } from '../store/database.ts';
import { inSpan, recording } from './spans.ts';

/** The first word of a statement (SELECT, UPDATE, WITH…): OpenTelemetry's db.operation.name. */
const operationOf = (sql: string) => /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';

export function traceQueries(db: Database): Database {
  // The embedded database is PostgreSQL too (PGlite): the same system, told apart by jes.db.kind.
  const system: Attributes = { 'db.system': 'postgresql', 'db.system.name': 'postgresql', 'jes.db.kind': db.kind };
  const statement = <T>(sql: string, run: () => Promise<T>): Promise<T> =>
    recording()
      ? inSpan(
          'db.query',
          {
            kind: SpanKind.CLIENT,
            attributes: { ...system, 'db.query.text': sql, 'db.operation.name': operationOf(sql) },
          },
          run,
        )
      : run();
  const traced = (tx: Queryable): Queryable => ({
    query: (sql, params) => statement(sql, () => tx.query(sql, params)),
  });
  // What is not a statement (listen, close, what else the interface holds) is the database's own.
  return {
    ...db,
    query: (sql, params) => statement(sql, () => db.query(sql, params)),
    bytes: (sql, params) => statement(sql, () => db.bytes(sql, params)),
    transaction: (fn) =>
      recording()
        ? inSpan('db.transaction', { kind: SpanKind.CLIENT, attributes: system }, () =>
            db.transaction((tx) => fn(traced(tx))),
          )
        : db.transaction(fn),
  };
}
