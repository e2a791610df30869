export * from './event-registry';
export * from './envelope';
export * from './nats-connection';
export * from './event-stream';
export * from './publisher';
export * from './outbox';
export * from './consumer-runner';
export * from './service-events';
