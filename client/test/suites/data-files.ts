// Data files and the inline limit against the real reference server: uploads as text, Blob,
// Node stream and file path; the 4 MiB boundary in bytes; reading, listing and deleting.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createJesClient, type DataFile, fromPath, type JesClient } from '../../src/node.ts';
import { exampleGraph, inputOfSize, sixNodes, sixNodesEdgeList } from '../support/graphs.ts';
import { type Servers, users } from '../support/processes.ts';

export function dataFilesSuite(servers: Servers): void {
  let carol: JesClient;
  beforeAll(() => {
    carol = createJesClient({ baseUrl: servers.main, username: 'carol', password: users.carol });
  });

  const sha1 = (bytes: string | Buffer) => createHash('sha1').update(bytes).digest('hex');

  async function validated(id: string): Promise<DataFile> {
    for (let i = 0; i < 200; i++) {
      const file = await carol.getDataFile(id);
      if (file.data?.status !== 'PROCESSING') return file.data!;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`data file ${id} still PROCESSING`);
  }

  describe('uploading', () => {
    it('uploads an edge list as text, then as a Blob and as a stream: one file, identified by the SHA-1 of its bytes', async () => {
      const text = await carol.uploadDataFile({
        problemId: 'maxcut',
        file: sixNodesEdgeList,
        name: 'six.txt',
        description: 'the 6-node example',
      });
      expect(text.response.status).toBe(201);
      expect(text.data).toMatchObject({
        id: sha1(sixNodesEdgeList),
        name: 'six.txt',
        description: 'the 6-node example',
        bytes: sixNodesEdgeList.length,
      });
      const blob = await carol.uploadDataFile({
        problemId: 'maxcut',
        file: new Blob([sixNodesEdgeList]),
        name: 'six.txt',
      });
      const stream = await carol.uploadDataFile({
        problemId: 'maxcut',
        file: new Blob([sixNodesEdgeList]).stream(),
        name: 'six.txt',
      });
      for (const again of [blob, stream]) {
        expect(again.response.status).toBe(200);
        expect(again.data?.id).toBe(sha1(sixNodesEdgeList));
      }
      expect(await validated(text.data!.id)).toMatchObject({
        status: 'READY',
        format: 'edge_list',
        num_nodes: 6,
        num_edges: 12,
      });
    });

    it('streams Gset G22 (examples/graphs) from a Node stream and from its path', async () => {
      const path = exampleGraph('G22.txt');
      const fromStream = await carol.uploadDataFile({
        problemId: 'maxcut',
        file: createReadStream(path),
        name: 'G22.txt',
      });
      expect(fromStream.data?.id).toBe(sha1(readFileSync(path)));
      const fromFile = await carol.uploadDataFile({ problemId: 'maxcut', ...(await fromPath(path)) });
      expect(fromFile.data).toMatchObject({ id: fromStream.data!.id, name: 'G22.txt' });
      expect(await validated(fromFile.data!.id)).toMatchObject({ status: 'READY', num_nodes: 2000, num_edges: 19990 });
    });

    it('reports the bytes sent with onProgress: from 0 up to the whole file (of a known total for a Blob, else unknown), the upload unchanged', async () => {
      const path = exampleGraph('G22.txt');
      const size = readFileSync(path).length;
      const seen = { blob: [] as [number, number | undefined][], stream: [] as [number, number | undefined][] };
      const fromBlob = await carol.uploadDataFile({
        problemId: 'maxcut',
        ...(await fromPath(path)),
        onProgress: (sent, total) => seen.blob.push([sent, total]),
      });
      const fromStream = await carol.uploadDataFile({
        problemId: 'maxcut',
        file: createReadStream(path),
        name: 'G22.txt',
        onProgress: (sent, total) => seen.stream.push([sent, total]),
      });
      for (const upload of [fromBlob, fromStream])
        expect(upload.data).toMatchObject({ id: sha1(readFileSync(path)), name: 'G22.txt', bytes: size });
      for (const [calls, total] of [
        [seen.blob, size],
        [seen.stream, undefined],
      ] as const) {
        expect(calls[0]).toEqual([0, total]);
        expect(calls.at(-1)).toEqual([size, total]);
        expect(calls.length).toBeGreaterThan(2); // 217,827 bytes come in several chunks
        expect(calls.every(([sent], i) => i === 0 || sent >= calls[i - 1]![0])).toBe(true);
      }
    });

    it('records an invalid file as INVALID with the reason; a job from it is refused', async () => {
      const broken = await carol.uploadDataFile({ problemId: 'maxcut', file: '2 1\n1 2 x\n', name: 'broken.txt' });
      const file = await validated(broken.data!.id);
      expect(file).toMatchObject({ status: 'INVALID', error: { code: 'data_file_invalid' } });
      expect((await carol.startJob('maxcut', { data_file_identifier: file.id })).error?.code).toBe('data_file_invalid');
    });
  });

  describe('the inline limit (4 MiB, in bytes)', () => {
    it('sends a body of 4,194,303 bytes inline and uploads one of 4,194,304 bytes as a data file', async () => {
      const options = { solvers: ['local-search'], timeLimitSeconds: 0.1 };
      const below = await carol.startJob('maxcut', inputOfSize(4_194_303), options);
      expect(below.data?.dataFile).toBeUndefined();
      const at = await carol.startJob('maxcut', inputOfSize(4_194_304), options);
      expect(at.data?.dataFile).toMatchObject({ name: 'maxcut-input.json', bytes: 4_194_304 });
      const belowJob = (await carol.getJob(below.data!.id)).data!;
      const atJob = (await carol.getJob(at.data!.id)).data!;
      expect(belowJob.input).toEqual({ mode: 'inline', bytes: 4_194_303 });
      expect(atJob.input).toEqual({ mode: 'data_file', data_file_identifier: at.data!.dataFile!.id, bytes: 4_194_304 });
      for (const id of [below.data!.id, at.data!.id])
        expect((await carol.waitForJob(id)).data?.status).toBe('FINISHED');
    });

    it('uploads when the service answers 413 although the body is under the client limit', async () => {
      const optimistic = createJesClient({
        baseUrl: servers.main,
        username: 'carol',
        password: users.carol,
        maxInlineBytes: 10_000_000,
      });
      const started = await optimistic.startJob('maxcut', inputOfSize(4_194_304), {
        solvers: ['local-search'],
        timeLimitSeconds: 0.1,
      });
      expect(started.data?.dataFile?.bytes).toBe(4_194_304);
    });
  });

  describe('reading, listing and deleting', () => {
    it('lists a new data file first, deletes it, and then answers data_file_not_found', async () => {
      const json = JSON.stringify(sixNodes);
      const uploaded = (await carol.uploadDataFile({ problemId: 'maxcut', file: json, name: 'six.json' })).data!;
      expect((await validated(uploaded.id)).format).toBe('json');
      const first = (await carol.listDataFiles({ limit: 1 }).next()).value;
      expect(first?.data?.items.map((f) => f.id)).toEqual([uploaded.id]);
      const ready: string[] = [];
      for await (const page of carol.listDataFiles({ status: 'READY', limit: 2 }))
        ready.push(...page.data!.items.map((f) => f.id));
      expect(ready).toContain(uploaded.id);
      expect((await carol.deleteDataFile(uploaded.id)).data).toEqual({ deleted: uploaded.id });
      expect((await carol.getDataFile(uploaded.id)).error).toMatchObject({ status: 404, code: 'data_file_not_found' });
      expect((await carol.deleteDataFile(uploaded.id)).error?.code).toBe('data_file_not_found');
    });
  });
}
