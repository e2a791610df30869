export * from './domain-errors';
export * from './error-mapping';
export * from './refusals';
export * from './wording';
