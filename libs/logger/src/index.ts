export * from './create-logger';
export * from './request-context';
export * from './redaction';
export * from './bounded-json';
