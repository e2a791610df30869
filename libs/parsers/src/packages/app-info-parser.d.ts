// app-info-parser ships no types. We use its two binary decoders directly on buffers we inflate
// ourselves (see README: this avoids its leaked descriptors and unbounded reads).
declare module 'app-info-parser/src/xml-parser/manifest' {
  class ManifestParser {
    constructor(buffer: Buffer, options?: { ignore?: string[] });
    parse(): Record<string, unknown>;
  }
  export = ManifestParser;
}

declare module 'app-info-parser/src/resource-finder' {
  class ResourceFinder {
    processResourceTable(buffer: Buffer): Record<string, unknown[]>;
  }
  export = ResourceFinder;
}

declare module 'app-info-parser/src/utils' {
  export function mapInfoResource<T>(info: T, resourceMap: Record<string, unknown[]>): T;
}

declare module 'app-info-parser/src/xml-parser/binary' {
  class BinaryXmlParser {
    constructor(buffer: Buffer, options?: { debug?: boolean });
    buffer: Buffer;
    cursor: number;
    readLength16(encoding: string): number;
    readString(encoding: string): string;
  }
  export = BinaryXmlParser;
}
