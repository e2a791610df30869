export * from './version-order';
