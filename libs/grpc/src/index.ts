export * from './server';
export * from './dependency-checks';
export * from './server-middleware';
export * from './client';
export * from './channel';
export { createChannel, Status } from 'nice-grpc';
export type { Channel, ServiceImplementation, CallContext } from 'nice-grpc';
export * from './graceful-shutdown';
export * from './shutdown-registry';
