// @adops/core: the contract, the API client and the logic every face shares.
export * from './contract/index.js';
export * from './client.js';
