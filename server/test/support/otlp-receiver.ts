// A tiny OTLP/HTTP receiver of traces for the tests: it takes what an exporter sends to /v1/traces, in JSON
// (http/json) or in protobuf (http/protobuf, the default; read with the few lines of the protobuf wire format that
// OTLP's trace messages need), and keeps every span with its service's name. Ids are hex, as in OTLP/JSON.
import { createServer, type Server } from 'node:http';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, unknown>;
  /** The `service.name` of the process that sent it. */
  service: string;
  /** How it came: `json` or `protobuf`. */
  encoding: 'json' | 'protobuf';
}

type Field = { number: number; value: bigint | Buffer };

/** The fields of one protobuf message, in order (varints and fixed numbers as bigint, the rest as bytes). */
function fields(bytes: Buffer): Field[] {
  const found: Field[] = [];
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const [number, wire] = [key >> 3, key & 7];
    if (wire === 0) found.push({ number, value: varint() });
    else if (wire === 1) found.push({ number, value: bytes.readBigUInt64LE((at += 8) - 8) });
    else if (wire === 5) found.push({ number, value: BigInt(bytes.readUInt32LE((at += 4) - 4)) });
    else if (wire === 2) {
      const length = Number(varint());
      found.push({ number, value: bytes.subarray(at, (at += length)) });
    } else throw new Error(`protobuf wire type ${wire} not read here`);
  }
  return found;
}

const all = (message: Buffer, number: number) =>
  fields(message)
    .filter((f) => f.number === number)
    .map((f) => f.value);
const one = (message: Buffer, number: number) => all(message, number)[0];

/** An AnyValue: string 1, bool 2, int 3, double 4. */
function anyValue(message: Buffer): unknown {
  const [field] = fields(message);
  if (!field) return undefined;
  if (field.number === 1) return (field.value as Buffer).toString('utf8');
  if (field.number === 2) return field.value === 1n;
  if (field.number === 3) return Number(BigInt.asIntN(64, field.value as bigint));
  if (field.number === 4) return Buffer.from(new BigUint64Array([field.value as bigint]).buffer).readDoubleLE(0);
  return undefined;
}

const keyValues = (list: (bigint | Buffer)[]) =>
  Object.fromEntries(
    (list as Buffer[]).map((kv) => [(one(kv, 1) as Buffer).toString('utf8'), anyValue(one(kv, 2) as Buffer)]),
  );

/** ExportTraceServiceRequest → ResourceSpans (resource 1, scope_spans 2) → ScopeSpans (spans 2) → Span. */
function fromProtobuf(body: Buffer): ReceivedSpan[] {
  return (all(body, 1) as Buffer[]).flatMap((resourceSpans) => {
    const resource = one(resourceSpans, 1) as Buffer | undefined;
    const service = String(keyValues(resource ? all(resource, 1) : [])['service.name']);
    return (all(resourceSpans, 2) as Buffer[]).flatMap((scopeSpans) =>
      (all(scopeSpans, 2) as Buffer[]).map((span) => {
        const parent = one(span, 4) as Buffer | undefined;
        return {
          traceId: (one(span, 1) as Buffer).toString('hex'),
          spanId: (one(span, 2) as Buffer).toString('hex'),
          parentSpanId: parent?.length ? parent.toString('hex') : undefined,
          name: (one(span, 5) as Buffer).toString('utf8'),
          kind: Number(one(span, 6) ?? 0n),
          startTimeUnixNano: one(span, 7) as bigint,
          endTimeUnixNano: one(span, 8) as bigint,
          attributes: keyValues(all(span, 9)),
          service,
          encoding: 'protobuf' as const,
        };
      }),
    );
  });
}

type JsonValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
const jsonValue = (v: JsonValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue));
const jsonAttributes = (list: { key: string; value: JsonValue }[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, jsonValue(value)]));

function fromJson(body: Buffer): ReceivedSpan[] {
  return (JSON.parse(body.toString('utf8')).resourceSpans ?? []).flatMap((rs: any) => {
    const service = String(jsonAttributes(rs.resource?.attributes)['service.name']);
    return (rs.scopeSpans ?? []).flatMap((ss: any) =>
      (ss.spans ?? []).map((s: any) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId || undefined,
        name: s.name,
        kind: s.kind,
        startTimeUnixNano: BigInt(s.startTimeUnixNano),
        endTimeUnixNano: BigInt(s.endTimeUnixNano),
        attributes: jsonAttributes(s.attributes),
        service,
        encoding: 'json' as const,
      })),
    );
  });
}

export interface OtlpReceiver {
  /** The base URL: what OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

export async function otlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const type = req.headers['content-type'];
    if (req.url === '/v1/traces' && type === 'application/json') spans.push(...fromJson(body));
    else if (req.url === '/v1/traces' && type === 'application/x-protobuf') spans.push(...fromProtobuf(body));
    else return void res.writeHead(415).end();
    // An empty ExportTraceServiceResponse: all accepted.
    if (type === 'application/json') res.writeHead(200, { 'content-type': type }).end('{}');
    else res.writeHead(200, { 'content-type': type }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
