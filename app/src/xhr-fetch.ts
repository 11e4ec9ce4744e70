// A `fetch` built on XMLHttpRequest, for the one thing fetch cannot do over HTTP/1.1: report an upload's
// progress. The dashboard hands it to a client of its own for an upload (or a start that may upload), so the
// typed client stays the only way the dashboard talks to the service.
export type Progress = (sent: number, total: number) => void;

/** Answers without a body: the Response constructor refuses one for these. */
const bodiless = new Set([101, 204, 205, 304]);

export function xhrFetch(onProgress: Progress): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      xhr.responseType = 'arraybuffer';
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total);
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const init = { status: xhr.status, statusText: xhr.statusText, headers };
        resolve(new Response(bodiless.has(xhr.status) ? null : (xhr.response as ArrayBuffer), init));
      };
      xhr.onerror = () => reject(new TypeError(`network error: ${request.method} ${request.url}`));
      xhr.onabort = () => reject(new DOMException('The request was aborted.', 'AbortError'));
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  };
}
