// The body of an operation that takes one, as Prism should see it, or the answer that refuses it, in the
// reference server's order: what the headers alone settle first (415 for a Content-Encoding, media type or
// charset it does not take), then the bytes read and decoded (413 past the operation's limit, 400 if they do
// not decode), then their content (400: JSON that does not parse, a form that cannot be read or has a part
// without a name, a value no deployment can store).
import type { IncomingMessage } from 'node:http';
import { charsetOf, codingOf, drain, isUtf8, mediaTypeOf, readBody, withoutBom } from './body.ts';
import { type Answer, invalidRequest, problem, problemAnswer } from './conventions.ts';
import { formForPrism, readForm } from './form.ts';
import type { Operation } from './mock.ts';
import { unacceptableValue } from './value-limits.ts';

/** Body limits of the contract: login below 64 KiB, an inline job below 4 MiB; anything else is capped at 16 MiB here. */
function maxBytes(operation: Operation): number {
  if (operation.iid === 'login') return 65_536;
  if (operation.iid === 'startJob') return 4_194_304;
  return 16 * 1024 * 1024;
}

/** The body for Prism, with the request headers to change (a form is written out again), or the refusal. */
export type Taken = { body: unknown; headers: Record<string, string> } | { refused: Answer };

const refuse = (answer: Answer): Taken => ({ refused: answer });

async function unsupported(req: IncomingMessage, detail: string, instance: string): Promise<Taken> {
  await drain(req);
  return refuse(problemAnswer(problem('unsupported_media_type', detail, instance)));
}

export async function takeBody(req: IncomingMessage, operation: Operation, instance: string): Promise<Taken> {
  const contents = operation.request?.body?.contents ?? [];
  const contentType = req.headers['content-type'];
  const type = mediaTypeOf(contentType);
  const coding = codingOf(req.headers['content-encoding']);
  if (!coding) return unsupported(req, `The Content-Encoding must be identity, gzip, deflate or br, not "${req.headers['content-encoding']}".`, instance);
  if (!contents.some((c) => c.mediaType === type)) {
    const sent = type ? `was sent as ${type}` : 'has no Content-Type';
    return unsupported(req, `This operation accepts ${contents.map((c) => c.mediaType).join(', ')}; the request ${sent}.`, instance);
  }
  if (type === 'application/json' && !isUtf8(charsetOf(contentType))) return unsupported(req, `JSON bodies must be UTF-8, not "${charsetOf(contentType)}".`, instance);

  const limit = maxBytes(operation);
  const read = await readBody(req, coding, limit);
  if ('tooLarge' in read) return refuse(problemAnswer({ ...problem('payload_too_large', `The body must be smaller than ${limit} bytes.`, instance), max_bytes: limit }));
  if ('undecodable' in read) return refuse(problemAnswer(problem('invalid_request', `The body cannot be decoded (Content-Encoding: ${coding}): ${read.undecodable}.`, instance)));
  // Prism is shown the decoded body, and its media type alone.
  const headers = { 'content-type': type, 'content-length': String(read.bytes.length) };
  if (!read.bytes.length) return { body: undefined, headers };

  if (type === 'multipart/form-data') {
    const form = await readForm(contentType!, read.bytes);
    if ('unreadable' in form) return refuse(problemAnswer(problem('invalid_request', `The multipart body cannot be read: ${form.unreadable}.`, instance)));
    // The pointer of a member with an empty name is "/" (RFC 6901).
    if (form.namelessFile || form.fields.some(([name]) => name === undefined)) {
      return refuse(invalidRequest(instance, [{ pointer: '/', detail: 'every part must have a name' }]));
    }
    const found = unacceptableValue(Object.fromEntries(form.fields as [string, string][]));
    if (found) return refuse(invalidRequest(instance, [found]));
    const schema = contents.find((c) => c.mediaType === type)?.schema as { properties?: Record<string, unknown> } | undefined;
    const rewritten = formForPrism(form, Object.keys(schema?.properties ?? {}));
    return { body: rewritten.body, headers: { ...headers, 'content-type': rewritten.contentType, 'content-length': String(Buffer.byteLength(rewritten.body)) } };
  }
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(withoutBom(read.bytes).toString('utf8'));
    } catch (error) {
      return refuse(problemAnswer(problem('malformed_json', `The body is not valid JSON (${(error as Error).message}).`, instance)));
    }
    const found = unacceptableValue(body);
    return found ? refuse(invalidRequest(instance, [found])) : { body, headers };
  }
  // Another media type the contract may name one day: its text, for Prism to judge.
  return { body: read.bytes.toString('utf8'), headers };
}
