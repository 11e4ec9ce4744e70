// Hostile requests to the sandbox, written byte for byte, and the check every answer gets: its status is one
// the contract documents for the operation (404 or 405 for none) and its body matches that response's schema.
import { request } from 'node:http';
import { expect } from 'vitest';
import { findOperation } from '../../../conformance/src/contract/document.ts';
import { type Sandbox, startSandbox } from '../../src/server.ts';
import { deref, loadContract, type Node, response, schemaValidator } from '../../../test/contract/openapi-document.ts';

export const doc = loadContract();
export const validate = schemaValidator(doc);

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Node;
}

/** The answer must be one the contract documents for the operation (a 404 or 405 for no operation). */
export function expectDocumented(method: string, path: string, answer: Answer): void {
  const where = `${method} ${path} → ${answer.status} ${JSON.stringify(answer.body ?? null).slice(0, 300)}`;
  const op = findOperation(doc, method, path.split('?')[0]!);
  if (!op) {
    expect([404, 405], where).toContain(answer.status);
    expect(validate({ $ref: '#/components/schemas/Problem' }, answer.body), where).toEqual([]);
    return;
  }
  const documented = response(doc, op, String(answer.status));
  expect(documented, `${where}: ${op.label} does not document ${answer.status}`).toBeDefined();
  const [type, media] = Object.entries<Node>(documented!.content ?? {})[0] ?? [];
  if (!type) return;
  expect(answer.headers['content-type'], where).toBe(type);
  expect(validate(deref(doc, media!.schema)!, answer.body), where).toEqual([]);
  if (type === 'application/problem+json') expect(answer.headers['x-request-id'], where).toBe(answer.body.request_id);
}

export interface Sent {
  /** An array sends the header once per value. */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/** A request over node:http (any header, any bytes), answered within 10 s or failed; checked by expectDocumented. */
export async function send(base: string, method: string, path: string, sent: Sent = {}): Promise<Answer> {
  const answer = await new Promise<Answer>((resolve, reject) => {
    // node:http sends a GET or DELETE body without Content-Length unless it is given.
    const length = sent.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(sent.body)) };
    const req = request(
      `${base}${path}`,
      { method, headers: { ...length, ...sent.headers }, agent: false, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined });
          } catch {
            reject(
              new Error(`${method} ${path} → ${res.statusCode} with a body that is not JSON: ${text.slice(0, 200)}`),
            );
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path} within 10 s`)));
    req.on('error', reject);
    req.end(sent.body);
  });
  expectDocumented(method, path, answer);
  return answer;
}

export const bearer = { authorization: 'Bearer anything' };
export const json = { ...bearer, 'content-type': 'application/json' };
export const graph = '{"num_nodes": 1, "adj_matrix": [[0]]}';
export const dataFileId = 'd6e02699b78918a5032ec7a872e2de7800c3a15a';
export const credentials = (username: string) => `{"username": "${username}", "password": "anything"}`;

export interface Part {
  name?: string;
  filename?: string;
  type?: string;
  value: string;
}

/** A multipart/form-data body written by hand, so that a part can lack a name, a file name or a type. */
export function form(parts: Part[]): { headers: Record<string, string>; body: Buffer } {
  const boundary = 'hostile-boundary-7f3a';
  const text = parts.map((p) => {
    const disposition = [
      'form-data',
      ...(p.name === undefined ? [] : [`name="${p.name}"`]),
      ...(p.filename === undefined ? [] : [`filename="${p.filename}"`]),
    ];
    const type = p.type ? `Content-Type: ${p.type}\r\n` : '';
    return `--${boundary}\r\nContent-Disposition: ${disposition.join('; ')}\r\n${type}\r\n${p.value}\r\n`;
  });
  return {
    headers: { ...bearer, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.from(`${text.join('')}--${boundary}--\r\n`),
  };
}

export const upload = (file: Omit<Part, 'name'>, more: Part[] = []) =>
  form([{ name: 'file', ...file }, { name: 'problem_id', value: 'maxcut' }, { name: 'name', value: 'g.txt' }, ...more]);
export const edgeList = '2 1\n1 2 3\n';

/** A sandbox on a free port, and `call` to send it a request checked by expectDocumented. */
export async function startedSandbox(): Promise<{
  sandbox: Sandbox;
  call: (method: string, path: string, sent?: Sent) => Promise<Answer>;
}> {
  const sandbox = await startSandbox({ port: 0, stateless: true });
  return { sandbox, call: (method, path, sent) => send(sandbox.url, method, path, sent) };
}
