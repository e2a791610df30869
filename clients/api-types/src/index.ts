/**
 * The gateway's public HTTP API as types, one copy for every client: the CLI
 * and the console both compile against it, so a field renamed in the gateway
 * breaks their builds, not their users. Generated (src/openapi.ts); types only.
 */
export type { components, operations, paths } from './openapi';
