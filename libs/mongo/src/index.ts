export * from './connection';
export * from './counters';
export * from './mongo-errors';
