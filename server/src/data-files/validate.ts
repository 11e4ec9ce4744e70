// Validating an uploaded data file in the background: stream its chunks through the max-cut reader and
// record READY (format, nodes, edges) or INVALID (a problem with pointers to the offending lines).
import type { Logger } from 'pino';
import { problemBody } from '../problems.ts';
import { graphFromDataFile } from '../maxcut/data-file.ts';
import { InputError } from '../maxcut/input-error.ts';
import type { Database } from '../store/database.ts';
import { processingDataFiles, readChunks, recordValidation, type Validation } from '../store/data-files.ts';

export async function validateDataFile(db: Database, owner: string, id: string, log: Logger): Promise<void> {
  let validation: Validation;
  try {
    const { format, graph } = await graphFromDataFile(readChunks(db, owner, id));
    validation = { format, numNodes: graph.n, numEdges: graph.edges };
  } catch (error) {
    if (!(error instanceof InputError))
      log.error({ err: error, dataFile: id }, 'data file validation failed unexpectedly');
    const detail = error instanceof InputError ? error.message : 'The data file could not be read.';
    validation = {
      error: problemBody('data_file_invalid', detail, error instanceof InputError ? { errors: error.errors } : {}),
    };
  }
  await recordValidation(db, owner, id, validation);
}

/** Validates, one after another, the files left PROCESSING (by a process that stopped before finishing). */
export async function validatePending(db: Database, log: Logger): Promise<void> {
  for (const { owner, id } of await processingDataFiles(db)) await validateDataFile(db, owner, id, log);
}
