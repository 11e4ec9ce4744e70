// POST /data_file's multipart/form-data body, read with @fastify/busboy as the reference server reads it (the
// same options: server/src/http/upload.ts), then written out again in the plain shape Prism's own multipart
// parser can read. That parser throws on what a client may well send (a part without a name, a file name
// without a Content-Type, a file name with "=" in it), so Prism never sees the body as it came.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';

export interface Form {
  /** Every text part in order; the name is undefined for a part whose name is empty or missing. */
  fields: [name: string | undefined, value: string][];
  /** Whether there is a part named `file`: with a file name or without, whatever its type, that part is the file. */
  hasFile: boolean;
  /** Whether some part with a file name has no name. */
  namelessFile: boolean;
  /** The bytes of the part named `file` (the stateful sandbox validates and keeps them). */
  file?: Buffer;
}

export function readForm(contentType: string, bytes: Buffer): Promise<Form | { unreadable: string }> {
  return new Promise((resolve) => {
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: { 'content-type': contentType },
        isPartAFile: (name, _type, filename) => name === 'file' || filename !== undefined,
        limits: { files: 1, fields: 8, parts: 16, fieldSize: 64 * 1024 },
      });
    } catch (error) {
      return resolve({ unreadable: (error as Error).message });
    }
    const form: Form = { fields: [], hasFile: false, namelessFile: false };
    let failure: Error | undefined;
    parser.on('field', (name: string | undefined, value: string) => form.fields.push([name || undefined, value]));
    parser.on('file', (name: string | undefined, stream: Readable) => {
      // In a form cut short the file's stream fails as well as the parser; the parser's error is the answer,
      // and an 'error' nobody listens to would kill the process.
      stream.on('error', () => {});
      if (!name) form.namelessFile = true;
      if (name !== 'file') return void stream.resume();
      form.hasFile = true;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => (form.file = Buffer.concat(chunks)));
    });
    parser.on('error', (error: Error) => (failure ??= error));
    parser.on('finish', () => resolve(failure ? { unreadable: failure.message } : form));
    parser.end(bytes);
  });
}

/**
 * The form for Prism's validation: the documented parts only (Prism ignores the others, and their names could
 * break its parser), each a plain text part; the file is only there, as nothing in a mock's answer depends on it.
 */
export function formForPrism(form: Form, documented: readonly string[]): { contentType: string; body: string } {
  const boundary = `sandbox-${randomUUID()}`;
  const parts = form.fields.filter(([name]) => name !== undefined && documented.includes(name)) as [string, string][];
  if (form.hasFile) parts.push(['file', '(the file)']);
  const body = parts.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${body.join('')}--${boundary}--\r\n` };
}
