import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { PackageParseError } from './package.errors';

export type ProtoValue = number | Buffer;

/** One protobuf message as field number → values in wire order; enough to read aapt2's formats. */
export type ProtoMessage = Map<number, ProtoValue[]>;

/**
 * Decodes the wire format of one message, without a schema; nested messages stay as bytes and are
 * decoded only when asked for, so nothing recurses here. BinaryReader bounds every length and
 * varint by the buffer; groups (wire types 3 and 4, unused by aapt2) are refused rather than
 * skipped, as skipping them recurses once per nested group.
 */
export function decodeProto(buffer: Buffer): ProtoMessage {
  const fields: ProtoMessage = new Map();
  const reader = new BinaryReader(buffer);
  try {
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      const value = readValue(reader, wireType);
      const list = fields.get(field);
      if (list) list.push(value);
      else fields.set(field, [value]);
    }
  } catch (error) {
    if (error instanceof PackageParseError) throw error;
    throw new PackageParseError(`protobuf: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return fields;
}

function readValue(reader: BinaryReader, wireType: WireType): ProtoValue {
  switch (wireType) {
    case WireType.Varint: {
      const value = BigInt(reader.uint64());
      // int32 fields carry negative numbers as 64-bit two's complement; keep 32 bits for them.
      return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number(BigInt.asIntN(32, value)) : Number(value);
    }
    case WireType.LengthDelimited:
      return asBuffer(reader.bytes());
    case WireType.Bit64:
    case WireType.Bit32:
      return asBuffer(reader.skip(wireType));
    default:
      throw new PackageParseError(`protobuf: unsupported wire type ${wireType}`);
  }
}

/** The reader hands out views of the Buffer it was given; typed as the Buffer they are. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
