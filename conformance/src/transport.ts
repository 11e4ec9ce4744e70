// How the suite's requests reach the deployment: undici's fetch over one dispatcher that honours the standard proxy
// variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, lower-case too), trusts a private CA besides the default roots and
// presents a client certificate to a deployment that asks for one (mutual TLS). It is undici's own fetch, not Node's:
// a dispatcher of the npm undici handed to Node's fetch breaks when the two versions part. And the connection
// failures that mean no request can get through (nothing listens, no such host, a TLS handshake that fails), each
// with what to do about it.
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import type { Dispatcher, RequestInit as UndiciInit } from 'undici';

export interface TransportFiles {
  caFile?: string | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
}

/** How an error names the files: the options' names (`caFile`) or the command's flags (`--ca-file`). */
export type FileNames = Record<keyof TransportFiles, string>;

export const optionNames: FileNames = { caFile: 'caFile', certFile: 'certFile', keyFile: 'keyFile' };

const pemLabels: Record<keyof TransportFiles, RegExp> = {
  caFile: /-----BEGIN CERTIFICATE-----/,
  certFile: /-----BEGIN CERTIFICATE-----/,
  keyFile: /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
};

/** A PEM file's text, or what is wrong with it (it cannot be read, or holds no certificate or key). */
export function readPem(path: string, kind: keyof TransportFiles): { pem: string } | { problem: string } {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { problem: `cannot read ${path} (${code ?? message})` };
  }
  if (!pemLabels[kind].test(pem))
    return { problem: `${path} holds no PEM ${kind === 'keyFile' ? 'private key' : 'certificate'}` };
  return { pem };
}

/** The TLS settings of the files, each read once; a one-line error naming the file's option when one is wrong. */
export function tlsSettings(files: TransportFiles, names: FileNames): { ca?: string[]; cert?: string; key?: string } {
  if ((files.certFile === undefined) !== (files.keyFile === undefined))
    throw new Error(`${names.certFile} and ${names.keyFile} go together: the client certificate and its key`);
  const read = (kind: keyof TransportFiles): string | undefined => {
    const path = files[kind];
    if (path === undefined) return undefined;
    const pem = readPem(path, kind);
    if ('problem' in pem) throw new Error(`${names[kind]}: ${pem.problem}`);
    return pem.pem;
  };
  const [ca, cert, key] = [read('caFile'), read('certFile'), read('keyFile')];
  if (cert !== undefined && key !== undefined) {
    try {
      tls.createSecureContext({ cert, key });
    } catch (error) {
      throw new Error(`${names.certFile} and ${names.keyFile}: ${(error as Error).message.replace(/^.*:/, '').trim()}`);
    }
  }
  // Node's `ca` replaces the roots it trusts: the deployment's CA is added to them (NODE_EXTRA_CA_CERTS's too, where
  // Node has getCACertificates: 22.15 and newer).
  const roots = tls.getCACertificates?.('default') ?? [...tls.rootCertificates];
  return { ...(ca !== undefined ? { ca: [...roots, ca] } : {}), ...(cert !== undefined ? { cert, key: key! } : {}) };
}

export interface Transport {
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** Whether a client certificate is presented (a deployment that closes the connection may want one). */
  clientCertificate: boolean;
  close(): Promise<void>;
}

type Undici = typeof import('undici');

/** undici's fetch sends only its own FormData: the suite's forms are copied into one. */
function undiciBody(undici: Undici, body: RequestInit['body']): UndiciInit['body'] {
  if (!(body instanceof FormData)) return body as UndiciInit['body'];
  const form = new undici.FormData();
  for (const [name, value] of body) form.append(name, value);
  return form;
}

/** The files are checked now; undici is loaded by the first request (a fifth of a second --help never waits). */
export function createTransport(files: TransportFiles, names: FileNames = optionNames): Transport {
  const settings = tlsSettings(files, names);
  let ready: Promise<{ undici: Undici; dispatcher: Dispatcher }> | undefined;
  const load = () =>
    (ready ??= import('undici').then((undici) => ({
      undici,
      dispatcher: new undici.EnvHttpProxyAgent({
        // Straight to the deployment, and inside a proxy's CONNECT tunnel to an https:// one.
        connect: settings,
        requestTls: settings,
        // The proxy itself may sit behind the same private CA; it never gets the client certificate.
        ...(settings.ca ? { proxyTls: { ca: settings.ca } } : {}),
        // http:// through a proxy as curl sends it (the absolute URI), not in a tunnel many proxies refuse.
        proxyTunnel: false,
      }),
    })));
  return {
    async fetch(url, init) {
      const { undici, dispatcher } = await load();
      const sent = { ...init, body: undiciBody(undici, init.body), dispatcher } as UndiciInit;
      return (await undici.fetch(url, sent)) as unknown as Response;
    },
    clientCertificate: settings.cert !== undefined,
    close: async () => {
      if (ready) await (await ready).dispatcher.destroy();
    },
  };
}

/** Errors that mean nothing is there to answer (as opposed to one request reset or timed out). */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The deployment's certificate is signed by no CA the run trusts. */
const unknownCa = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

const certificateAdvice: Record<string, string> = {
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: "its certificate is for another host name than the base URL's",
  CERT_REVOKED: 'its certificate is revoked',
  ERR_SSL_WRONG_VERSION_NUMBER: 'it does not speak TLS on that port (an http:// URL?)',
};

export interface ConnectionFailure {
  code: string;
  /** What went wrong in TLS and what to do, when it was TLS. */
  tls?: string;
}

/**
 * Why no connection could be made, when a fetch failure means no request can reach the deployment; else undefined.
 * `first`: nothing has answered yet, so an https:// connection closed before any answer is the handshake refused.
 */
export function connectionFailure(
  error: unknown,
  at: { https: boolean; first: boolean; clientCertificate: boolean },
): ConnectionFailure | undefined {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code && unreachableCodes.has(code)) return { code };
  // fetch refuses some ports outright (6000, 6665…, as browsers do): no request can ever reach them.
  if (cause?.message === 'bad port') return { code: 'bad port' };
  if (!code || !at.https) return undefined;
  const certificate = at.clientCertificate ? 'a client certificate it accepts' : 'a client certificate';
  if (unknownCa.has(code))
    return {
      code,
      tls: 'its certificate is signed by a CA this run does not trust: give that CA with --ca-file (caFile)',
    };
  if (certificateAdvice[code]) return { code, tls: certificateAdvice[code] };
  if (/^ERR_SSL_|^ERR_TLS_|^EPROTO$/.test(code))
    return { code, tls: `the handshake failed: if it asks for ${certificate}, give one with --cert and --key` };
  // TLS 1.3 verifies a client's certificate after the client's side of the handshake is done: a deployment that
  // wants one and gets none closes the connection when the request comes.
  if (at.first && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET'))
    return {
      code,
      tls: `it closed the connection before answering: if it asks for ${certificate}, give one with --cert and --key`,
    };
  return undefined;
}
