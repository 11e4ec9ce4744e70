// A deployment as gateways put one: a CA made on the spot (selfsigned), a certificate it signs for 127.0.0.1 and
// localhost and a client certificate it signs, written as PEM files; a TLS-terminating proxy in front of a plain
// HTTP server, asking for a client certificate when told to (mutual TLS); and a forward proxy (CONNECT tunnels and
// absolute URIs, as HTTPS_PROXY and HTTP_PROXY name one) that counts what it carried.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { generate } from 'selfsigned';

export interface Pem {
  cert: string;
  key: string;
  /** The files they are written to. */
  certFile: string;
  keyFile: string;
}

export interface Certificates {
  ca: Pem;
  server: Pem;
  client: Pem;
}

/** A CA, a server certificate (127.0.0.1, localhost) and a client certificate it signs, valid for a day. */
export async function makeCertificates(): Promise<Certificates> {
  const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-tls-'));
  const options = {
    keyType: 'ec' as const,
    algorithm: 'sha256' as const,
    notAfterDate: new Date(Date.now() + 86_400_000),
  };
  const written = (name: string, made: { cert: string; private: string }): Pem => {
    const [certFile, keyFile] = [join(dir, `${name}.pem`), join(dir, `${name}-key.pem`)];
    writeFileSync(certFile, made.cert);
    writeFileSync(keyFile, made.private);
    return { cert: made.cert, key: made.private, certFile, keyFile };
  };
  const ca = written(
    'ca',
    await generate([{ name: 'commonName', value: 'jes-conformance test CA' }], {
      ...options,
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    }),
  );
  const signer = { ca: { key: ca.key, cert: ca.cert } };
  // A certificate for `localhost` names 127.0.0.1 too (selfsigned's default extensions).
  const server = written(
    'server',
    await generate([{ name: 'commonName', value: 'localhost' }], { ...options, ...signer }),
  );
  const client = written(
    'client',
    await generate([{ name: 'commonName', value: 'jes-conformance' }], {
      ...options,
      ...signer,
      extensions: [{ name: 'extKeyUsage', clientAuth: true }],
    }),
  );
  return { ca, server, client };
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Both ends closed when either fails or ends. */
function joined(a: Socket, b: Socket): void {
  a.pipe(b).pipe(a);
  for (const socket of [a, b]) socket.on('error', () => [a, b].forEach((s) => s.destroy()));
}

function closing(server: { close(done: () => void): void }, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/**
 * TLS in front of `target` (http://host:port): each connection's bytes passed on as they are once the handshake is
 * done. With `clientCertificate`, a client without one the CA signed is refused in the handshake.
 */
export async function startTlsProxy(
  target: string,
  certificates: Certificates,
  { clientCertificate = false } = {},
): Promise<Listening> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server = createTlsServer(
    {
      cert: certificates.server.cert,
      key: certificates.server.key,
      ca: certificates.ca.cert,
      requestCert: clientCertificate,
      rejectUnauthorized: clientCertificate,
    },
    (socket) => {
      const upstream = connect(Number(port), hostname);
      [socket, upstream].forEach((s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
      joined(socket, upstream);
    },
  );
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as { port: number }).port}`, close: closing(server, sockets) };
}

/** A forward proxy: tunnels (CONNECT host:port) and absolute-URI requests, each recorded in `carried` as it comes. */
export async function startForwardProxy(): Promise<Listening & { carried: string[] }> {
  const carried: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    carried.push(`${req.method} ${req.url}`);
    const url = new URL(req.url!);
    const upstream = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => (sockets.add(socket), socket.on('close', () => sockets.delete(socket))));
  server.on('connect', (req, socket: Socket, head: Buffer) => {
    carried.push(`CONNECT ${req.url}`);
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), req.url!.slice(req.url!.lastIndexOf(':') + 1)];
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      joined(socket, upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    carried,
    close: closing(server, sockets),
  };
}
