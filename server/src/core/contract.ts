// The contract as data, read once by @jes/contract's reader: what the use-case record quotes from it, and the
// paths and methods that route a request before anything else is done with it.
import { carriedContract, type ContractDocument } from '@jes/contract/node';

export type { ContractDocument } from '@jes/contract/node';

export const contract: ContractDocument = carriedContract();
