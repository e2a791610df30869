// Package parsing (builds) and debug-file parsing (dSYM, ProGuard mappings).
export * from './packages';
export * from './debug-files';
