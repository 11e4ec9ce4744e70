// @jes/contract's entry for Node, for the server, the sandbox and the conformance suite: reading openapi.yaml,
// explaining a refused start-job body (Ajv), answering the requests Node refuses itself. Its dependencies (ajv,
// yaml) are optional peers, so that the client, which loads the main entry only, installs without them.
export { answerClientErrors } from './client-errors.ts';
export { carriedContract, type ContractDocument, contractPath, readContract } from './contract-document.ts';
export { startJobBodyErrors, startsJob } from './start-job-body.ts';
export { fingerprint } from './request-fingerprint.ts';
