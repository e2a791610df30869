export * from './net';
export * from './child-processes';
export * from './go-tools';
export * from './setup-error';
export * from './infrastructure';
export * from './admin-credentials';
export * from './launcher';
export * from './postgres';
