export * from './create-logger';
export * from './request-context';
export * from './redaction';
