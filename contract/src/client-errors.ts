// Requests Node refuses before the server or the sandbox sees them (malformed HTTP, headers over Node's 16 KiB,
// headers or a body too slow to arrive) still get a problem, as every non-2xx answer must, instead of Node's bare
// status line.
import { randomUUID } from 'node:crypto';
import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, type ErrorCode } from './error-catalogue.ts';

function problemFor(code: string | undefined, service: string): [ErrorCode, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['request_timeout', 'The request did not arrive in time.'];
  if (code === 'HPE_HEADER_OVERFLOW')
    return ['headers_too_large', `The request headers are larger than ${service} accepts (16 KiB).`];
  return ['invalid_request', 'The request is not well-formed HTTP/1.1.'];
}

/** Answers `server`'s client errors with problems; `service` names it in their details ("this server"). */
export function answerClientErrors(server: Server, service: string): void {
  server.on(
    'clientError',
    (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      // A connection the client already dropped, or one whose answer has begun, cannot be answered.
      if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent)
        return void socket.destroy();
      const problem = { ...errorBody(...problemFor(error.code, service)), request_id: randomUUID() };
      const { status, request_id: id } = problem;
      const body = JSON.stringify(problem);
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  );
}
