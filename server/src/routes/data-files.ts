// Data files: upload (streamed by http/upload.ts before validation), list, read, delete.
import { Router } from 'express';
import type { AppDeps } from './deps.ts';
import { idempotentRequest, replayed, sendAnswer } from '../http/idempotency.ts';
import { dataFileTooLarge } from '../http/upload.ts';
import { ApiError } from '../core/api-error.ts';
import { pageLimit } from '../http/query.ts';
import { renderDataFile } from '../jobs/render.ts';
import * as dataFiles from '../store/data-files.ts';
import { KeyInUse } from '../store/idempotency-keys.ts';
import { useCase } from '../http/known-use-case.ts';
import { activeTraceparent } from '../tracing/spans.ts';

export function dataFileRoutes({ db, config }: AppDeps): Router {
  const router = Router();

  router.post('/data_file', async function uploadDataFile(req, res) {
    const fields = req.body as { problem_id: string; name: string; description?: string };
    const { maxDataFileBytes } = useCase(fields.problem_id);
    const upload = req.upload!;
    if (upload.bytes > maxDataFileBytes) throw dataFileTooLarge(maxDataFileBytes);
    // The same request: the use case, the file (its SHA-1) and the fields. Not the raw body: a multipart
    // boundary differs from one attempt to the next. A replay leaves this attempt's bytes to be discarded.
    const idempotent = idempotentRequest(req, [
      JSON.stringify([fields.problem_id, upload.sha1, fields.name, fields.description ?? null]),
    ]);
    if (idempotent && (await replayed(db, req, res, idempotent))) return;
    const answer = ({ created, row }: dataFiles.Filed) => ({
      status: created ? 201 : 200,
      body: {
        detail: created ? 'Data file uploaded' : 'Data file already uploaded',
        data_file_identifier: row.id,
        data_file: { [row.id]: renderDataFile(row) },
      },
      location: created ? `/data_file/${row.id}` : null,
    });
    let filed: dataFiles.Filed;
    try {
      filed = await dataFiles.completeUpload(
        db,
        {
          owner: req.user,
          uploadId: upload.uploadId,
          id: upload.sha1,
          problemId: fields.problem_id,
          name: fields.name,
          description: fields.description,
          bytes: upload.bytes,
          quotaBytes: config.storageQuotaBytes,
          traceparent: activeTraceparent(),
        },
        idempotent && { request: idempotent, answer },
      );
    } catch (error) {
      if (error instanceof KeyInUse && (await replayed(db, req, res, idempotent!))) return;
      throw error;
    }
    // A new file is validated by a worker (worker/validation.ts), announced by completeUpload.
    upload.filed = true;
    sendAnswer(res, answer(filed));
  });

  router.get('/data_file', async function listDataFiles(req, res) {
    const q = req.query as { starting_after?: string; status?: string; problem_id?: string };
    const limit = pageLimit(req.query.limit);
    const { rows, hasMore } = await dataFiles.listDataFiles(db, req.user, {
      limit,
      startingAfter: q.starting_after,
      status: q.status,
      problemId: q.problem_id,
    });
    res.json({
      data_file: Object.fromEntries(rows.map((r) => [r.id, renderDataFile(r)])),
      ids: rows.map((r) => r.id),
      has_more: hasMore,
    });
  });

  router.get('/data_file/:data_file_identifier', async function getDataFile(req, res) {
    const id = req.params.data_file_identifier!;
    const row = await dataFiles.readDataFile(db, req.user, id);
    if (!row) throw new ApiError('data_file_not_found', `No data file ${id} exists for this user.`);
    res.json({ data_file: { [id]: renderDataFile(row) } });
  });

  router.delete('/data_file/:data_file_identifier', async function deleteDataFile(req, res) {
    await dataFiles.deleteDataFile(db, req.user, req.params.data_file_identifier!);
    res.status(204).end();
  });

  return router;
}
