// Validating an uploaded data file, as a task a worker claims (store/validations.ts): its use case reads the
// chunks once, and the outcome is recorded: READY (format, size, and the prepared input every job of the file
// will load instead of parsing it again) or INVALID (a problem with pointers to the offending lines). A database
// failure is no verdict: the file stays PROCESSING, and its lease runs out for another try.
import type { Logger } from 'pino';
import { InputError } from '../input-error.ts';
import { problemBody } from '../problems.ts';
import type { Database } from '../store/database.ts';
import { readChunks } from '../store/data-files.ts';
import { isTransient } from '../store/transient.ts';
import { type ClaimedValidation, recordValidation, type Validation } from '../store/validations.ts';
import { findUseCase } from '../use-cases.ts';

export async function validateDataFile(db: Database, file: ClaimedValidation, log: Logger): Promise<void> {
  const { owner, id } = file;
  let validation: Validation;
  try {
    const useCase = findUseCase(file.problem_id);
    if (!useCase) throw new InputError(`This server does not run use case "${file.problem_id}".`);
    const { format, input } = await useCase.readDataFile(readChunks(db, owner, id));
    const size = useCase.size(input);
    validation = { format, numNodes: size.nodes, numEdges: size.edges, prepared: useCase.encode(input) };
  } catch (error) {
    if (isTransient(error)) throw error;
    if (!(error instanceof InputError))
      log.error({ err: error, dataFile: id }, 'data file validation failed unexpectedly');
    const detail = error instanceof InputError ? error.message : 'The data file could not be read.';
    validation = {
      error: problemBody('data_file_invalid', detail, error instanceof InputError ? { errors: error.errors } : {}),
    };
  }
  await recordValidation(db, owner, id, validation);
}
