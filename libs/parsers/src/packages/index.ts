export type { PackageFormat, ParsedPackage, ParseOptions, Platform } from './package.types';
export { PackageParseError, UnknownPackageError } from './package.errors';
export { detectPackageFormat } from './format-detector';
export { parsePackage } from './parse-package';
export type { ByteSource } from './byte-source';
export { RandomAccessFile } from './random-access-file';
export { couldBePackage, PACKAGE_HEAD_BYTES } from './package-head';
export { ZipArchive, withZip } from './zip-reader';
