export * from './generations';
export * from './validated-cache';
export * from './bump-after-writes';
export * from './generation-keys';
export * from './coalesced-reads';
