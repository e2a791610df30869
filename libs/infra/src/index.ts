export * from './net';
export * from './child-processes';
export * from './go-tools';
export * from './infrastructure';
export * from './admin-credentials';
export * from './launcher';
