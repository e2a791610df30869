// The parsing pool: packages and debug files read by range from storage, over NATS request/reply.
export * from './contract';
export { type AskTimings, ParseNotAccepted, requestDebugFileParse, requestParse, within } from './client';
export { type ParseWorkerOptions, type RunningParseWorker, startParseWorker } from './worker';
export { parseObject } from './package.job';
export { parseDebugFileObject, removeMembers } from './debug-file.job';
export { Slots } from './slots';
export { debugFileParseRouter, parseRouter, type ParseRouterOptions } from './router';
