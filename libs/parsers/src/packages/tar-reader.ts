import type { Readable } from 'node:stream';
import { extract, type Header } from 'tar-stream';
import { PackageParseError } from './package.errors';

/**
 * One member of a tar as it streams by. Its `body` is read to its end or not at all: tar-stream
 * skips an unread body, but a body left half-read ends the whole archive.
 */
export interface TarMember {
  /** Name with ustar prefix, GNU long name or pax path applied; type, size. */
  readonly header: Header;
  readonly body: AsyncIterable<Buffer>;
}

/**
 * The members of a tar, front to back, decoded by tar-stream: the one tar decoder of the library
 * (.deb control archives, Linux debug-file tars). Errors are tar-stream's or the input's as they
 * are: each caller words them in its own error type.
 *
 * There is no ranged variant: every tar read today is either small and in memory (control.tar)
 * or gzipped (no ranged reads possible), and a plain tar of debug files is copied member by
 * member anyway. A reader that skips bodies by range would need a decoder of its own.
 */
export async function* tarMembers(input: Readable | Buffer): AsyncGenerator<TarMember> {
  const parser = extract();
  if (Buffer.isBuffer(input)) {
    parser.end(input);
  } else {
    input.once('error', (error) => parser.destroy(error));
    input.pipe(parser as unknown as NodeJS.WritableStream);
  }
  try {
    for await (const entry of parser) {
      yield { header: entry.header, body: entry as AsyncIterable<Buffer> };
      entry.resume();
    }
  } finally {
    parser.destroy();
    if (!Buffer.isBuffer(input)) input.destroy();
  }
}

/** Whether `prefix` (the first bytes of a file) opens with a member tar-stream can decode. */
export async function startsWithTarMember(prefix: Buffer): Promise<boolean> {
  const members = tarMembers(prefix);
  try {
    return !(await members.next()).done;
  } catch {
    // Not a tar header: the answer is no.
    return false;
  } finally {
    await members.return(undefined);
  }
}

/** One regular file of a small in-memory tar (the control.tar of a .deb), by its path without `./`. */
export async function findTarFile(tar: Buffer, wanted: (path: string) => boolean): Promise<Buffer | undefined> {
  try {
    for await (const { header, body } of tarMembers(tar)) {
      if (header.type !== 'file' || !wanted(header.name.replace(/^\.\//, ''))) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk);
      return Buffer.concat(chunks);
    }
    return undefined;
  } catch (error) {
    throw new PackageParseError(`tar: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
