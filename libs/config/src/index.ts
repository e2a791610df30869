export { z } from 'zod';
export * from './load-config';
export * from './fields';
export * from './exit-codes';
export * from './databases';
