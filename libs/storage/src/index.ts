export * from './object-storage';
export { multipartUpload } from './multipart-upload';
export { RangeReader, type RangeFetcher, type RangeReaderOptions, type RangeReaderStats } from './range-reader';
export { ByteBudget } from './byte-budget';
