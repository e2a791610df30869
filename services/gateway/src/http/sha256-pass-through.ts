import { createHash } from 'node:crypto';
import { Readable, Transform, TransformCallback } from 'node:stream';

/**
 * The bytes unchanged, hashed on their way through: the package's SHA-256 is
 * known when the upload to storage ends, without reading the object again
 * (in-app update checks compare it with `release_hash`).
 */
export class Sha256PassThrough extends Transform {
  private readonly hash = createHash('sha256');
  private hex?: string;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.hex = this.hash.digest('hex');
    callback();
  }

  /** Lowercase hex, once every byte went through. */
  digest(): string {
    if (this.hex === undefined) throw new Error('the stream has not ended');
    return this.hex;
  }

  /** `source` piped through a new hasher; an error of the source ends the hasher with it. */
  static of(source: Readable): Sha256PassThrough {
    const hasher = new Sha256PassThrough();
    source.on('error', (err) => hasher.destroy(err));
    source.pipe(hasher);
    return hasher;
  }
}
