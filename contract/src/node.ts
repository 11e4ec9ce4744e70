// @jes/contract's entry for Node, for the server, the sandbox and the conformance suite: reading openapi.yaml,
// explaining a refused start-job body (Ajv), answering the requests Node refuses itself, signing, guarding and
// sending webhooks (node:crypto, node:net, node:http). Its dependencies (ajv, yaml) are optional peers, so
// that the client, which loads the main entry only, installs without them.
export { answerClientErrors } from './client-errors.ts';
export {
  carriedContract,
  type ContractDocument,
  contractPath,
  parseContract,
  readContract,
} from './contract-document.ts';
export { startJobBodyErrors, startsJob } from './start-job-body.ts';
export { fingerprint } from './request-fingerprint.ts';
export { newWebhookSecret, signatureHeader, webhookHeaders, webhookSignature } from './webhooks/signature.ts';
export {
  addressAllowed,
  hostRefusal,
  normalHost,
  parseAllowHosts,
  refusedAddressKind,
  webhookUrlRefusal,
  type WebhookUrlRefusal,
} from './webhooks/address-guard.ts';
export {
  attemptDelivery,
  attemptTimeoutMs,
  maxAnswerBytes,
  type AttemptOptions,
  type AttemptResult,
  type Resolve,
} from './webhooks/attempt.ts';
export { nextRetryDelayMs, webhookMaxAttempts, webhookRetryDelaysMs } from './webhooks/schedule.ts';
