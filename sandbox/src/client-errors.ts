// Requests Node refuses before the sandbox sees them (malformed HTTP, headers over 16 KiB, too slow to arrive)
// get a problem like every other refusal, as the reference server answers them, not Node's bare status line.
import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { problem } from './conventions.ts';

export function answerClientErrors(server: Server): void {
  server.on(
    'clientError',
    (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent)
        return void socket.destroy();
      const refusal =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? problem('request_timeout', 'The request did not arrive in time.', '/')
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? problem('headers_too_large', 'The request headers are larger than the sandbox accepts (16 KiB).', '/')
            : problem('invalid_request', 'The request is not well-formed HTTP/1.1.', '/');
      const body = JSON.stringify(refusal);
      socket.end(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${refusal.request_id}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  );
}
