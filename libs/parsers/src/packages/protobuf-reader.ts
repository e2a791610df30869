import { PackageParseError } from './package.errors';

export type ProtoValue = number | Buffer;

/** One protobuf message as field number → values in wire order; enough to read aapt2's formats. */
export type ProtoMessage = Map<number, ProtoValue[]>;

/** Decodes the wire format of one message, without a schema; nested messages stay as bytes. */
export function decodeProto(buffer: Buffer): ProtoMessage {
  const fields: ProtoMessage = new Map();
  let offset = 0;
  const varint = (): number => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (offset >= buffer.length || shift > 63n) throw new PackageParseError('protobuf: truncated varint');
      const byte = buffer[offset++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) break;
      shift += 7n;
    }
    // int32 fields carry negative numbers as 64-bit two's complement; keep 32 bits for them.
    return result > BigInt(Number.MAX_SAFE_INTEGER) ? Number(BigInt.asIntN(32, result)) : Number(result);
  };
  while (offset < buffer.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wireType = key & 7;
    let value: ProtoValue;
    switch (wireType) {
      case 0:
        value = varint();
        break;
      case 1:
        if (offset + 8 > buffer.length) throw new PackageParseError('protobuf: truncated fixed64');
        value = buffer.subarray(offset, offset + 8);
        offset += 8;
        break;
      case 2: {
        const length = varint();
        if (offset + length > buffer.length) throw new PackageParseError('protobuf: length runs past the message');
        value = buffer.subarray(offset, offset + length);
        offset += length;
        break;
      }
      case 5:
        if (offset + 4 > buffer.length) throw new PackageParseError('protobuf: truncated fixed32');
        value = buffer.subarray(offset, offset + 4);
        offset += 4;
        break;
      default:
        throw new PackageParseError(`protobuf: unsupported wire type ${wireType}`);
    }
    const list = fields.get(field);
    if (list) list.push(value);
    else fields.set(field, [value]);
  }
  return fields;
}

export function protoString(message: ProtoMessage, field: number): string | undefined {
  const value = message.get(field)?.[0];
  return Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
}

export function protoNumber(message: ProtoMessage, field: number): number | undefined {
  const value = message.get(field)?.[0];
  return typeof value === 'number' ? value : undefined;
}

export function protoMessages(message: ProtoMessage, field: number): ProtoMessage[] {
  return (message.get(field) ?? []).filter(Buffer.isBuffer).map((bytes) => decodeProto(bytes));
}

export function protoMessage(message: ProtoMessage, field: number): ProtoMessage | undefined {
  return protoMessages(message, field)[0];
}
