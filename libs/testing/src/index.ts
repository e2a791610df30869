export * from './test-infrastructure';
export * from './hangar-process';
export * from './http-client';
export * from './api-users';
export * from './hostile-bytes';
export * from './openapi-validator';
export * from './probes';
