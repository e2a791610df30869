export * from './connection';
export * from './counters';
export * from './mongo-errors';
export * from './job-turns';
export * from './query-log';
export * from './find-each';
export * from './installation-record';
export * from './insert-new';
