// @jes/contract/inputs: each use case's input as the contract defines it, read and checked (an inline body's rules
// the schema cannot express; a data file streamed chunk by chunk, never held as one string), with the errors a
// deployment answers (InputError: a message and JSON pointers), and an answer's value recomputed on the prepared
// input. The server prepares what its solvers read with it, and the sandbox validates and answers with it: one
// reading of an input, byte for byte the same reasons and pointers. No dependency, nothing of Node: browsers load it.
export { ErrorList, InputError, type InputErrorItem, jsonPointer, MAX_REPORTED_ERRORS } from './input-error.ts';
export { OPEN_BRACE, peekFirstByte } from './read/first-byte.ts';

export { type DataFileFormat, graphFromDataFile } from './maxcut/data-file.ts';
export { absoluteWeight, cutValue, type Graph, graphFromEdges, TOTAL_WEIGHT_MESSAGE } from './maxcut/graph.ts';
export { checkMatrix, checkMaxCutInline, graphFromInline, type MaxCutInlineInput } from './maxcut/inline.ts';
export * as maxcutLimits from './maxcut/limits.ts';

export { type QuboDataFileFormat, quboFromDataFile } from './qubo/data-file.ts';
export { checkQubo, type QuboInlineInput } from './qubo/inline.ts';
export { energy, type QuboInput } from './qubo/input.ts';
export * as quboLimits from './qubo/limits.ts';
