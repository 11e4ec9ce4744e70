// Uploading a data file as a client does (`POST /data_file`, multipart) and waiting until the workers have
// validated it (bench:submit, bench:scale).
import { setTimeout as sleep } from 'node:timers/promises';
import { type Api, json, send } from './client.ts';

/** A multipart/form-data body for `POST /data_file`: `maxcut`, the name, the file's bytes. */
export function dataFileForm(file: Buffer, name: string): { body: Buffer; type: string } {
  const boundary = `----jes-bench-${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="problem_id"\r\n\r\nmaxcut\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Uploads `file` and polls until it is READY (every 20 ms); the time each took. Throws if it is INVALID. */
export async function uploadDataFile(
  api: Api,
  file: Buffer,
  name: string,
): Promise<{ id: string; uploadMs: number; readyMs: number }> {
  const { body, type } = dataFileForm(file, name);
  const started = performance.now();
  const reply = await send(api.base, 'POST', '/data_file', { headers: { ...api.auth, 'content-type': type }, body });
  if (reply.status !== 201 && reply.status !== 200) throw new Error(`upload: ${reply.status} ${reply.body}`);
  const uploaded = performance.now();
  const id = json(reply).data_file_identifier as string;
  for (;;) {
    const file = json(await send(api.base, 'GET', `/data_file/${id}`, { headers: api.auth })).data_file[id];
    if (file.status === 'READY') break;
    if (file.status === 'INVALID') throw new Error(`${name} is invalid: ${JSON.stringify(file.error)}`);
    await sleep(20);
  }
  return { id, uploadMs: uploaded - started, readyMs: performance.now() - uploaded };
}
