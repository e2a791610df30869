export * from './metrics';
export * from './series';
export * from './server';
