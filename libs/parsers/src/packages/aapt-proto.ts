import { protoMessage, protoMessages, protoNumber, protoString, decodeProto } from './protobuf-reader';

// Field numbers from aapt2's Resources.proto (frameworks/base/tools/aapt2/Resources.proto).
const XML_NODE = { element: 1 } as const;
const XML_ELEMENT = { namespaceUri: 2, name: 3, attribute: 4, child: 5 } as const;
const XML_ATTRIBUTE = { namespaceUri: 1, name: 2, value: 3, compiledItem: 6 } as const;
const ITEM = { ref: 1, str: 2, file: 5, prim: 7 } as const;
const REFERENCE = { id: 2, name: 3 } as const;
const PRIMITIVE_INT_DECIMAL = 6;
const PRIMITIVE_BOOLEAN = 8;

export const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

export interface ProtoXmlAttribute {
  namespaceUri: string;
  name: string;
  value: string;
  /** "type/name" of a compiled reference, e.g. "string/app_name". */
  refName?: string;
  number?: number;
  boolean?: boolean;
}

export interface ProtoXmlElement {
  name: string;
  attributes: ProtoXmlAttribute[];
  children: ProtoXmlElement[];
}

/** Decodes an XmlNode (the proto-format AndroidManifest.xml of an app bundle) into a small tree. */
export function decodeProtoXml(buffer: Buffer): ProtoXmlElement | undefined {
  const element = protoMessage(decodeProto(buffer), XML_NODE.element);
  return element ? readElement(element, 0) : undefined;
}

function readElement(element: ReturnType<typeof decodeProto>, depth: number): ProtoXmlElement {
  const children: ProtoXmlElement[] = [];
  // Manifests are shallow; a deep tree is hostile input, so stop instead of recursing forever.
  if (depth < 32) {
    for (const node of protoMessages(element, XML_ELEMENT.child)) {
      const child = protoMessage(node, XML_NODE.element);
      if (child) children.push(readElement(child, depth + 1));
    }
  }
  return {
    name: protoString(element, XML_ELEMENT.name) ?? '',
    attributes: protoMessages(element, XML_ELEMENT.attribute).map((attribute) => {
      const item = protoMessage(attribute, XML_ATTRIBUTE.compiledItem);
      const ref = item && protoMessage(item, ITEM.ref);
      const prim = item && protoMessage(item, ITEM.prim);
      const booleanValue = prim && protoNumber(prim, PRIMITIVE_BOOLEAN);
      return {
        namespaceUri: protoString(attribute, XML_ATTRIBUTE.namespaceUri) ?? '',
        name: protoString(attribute, XML_ATTRIBUTE.name) ?? '',
        value: protoString(attribute, XML_ATTRIBUTE.value) ?? '',
        refName: ref && protoString(ref, REFERENCE.name),
        number: prim && protoNumber(prim, PRIMITIVE_INT_DECIMAL),
        boolean: booleanValue === undefined ? undefined : booleanValue !== 0,
      };
    }),
    children,
  };
}

export function attribute(element: ProtoXmlElement, name: string, namespaceUri = ANDROID_NS): ProtoXmlAttribute | undefined {
  return element.attributes.find((item) => item.name === name && item.namespaceUri === namespaceUri);
}

export function childrenNamed(element: ProtoXmlElement, name: string): ProtoXmlElement[] {
  return element.children.filter((child) => child.name === name);
}

/**
 * Values of a resource in an aapt2 ResourceTable (resources.pb) by "type/name": strings for
 * string resources, file paths for drawables and mipmaps, one per configuration.
 */
export function resolveResource(table: Buffer, typeAndName: string): string[] {
  const [typeName, entryName] = typeAndName.replace(/^@/, '').split('/');
  const values: string[] = [];
  for (const pkg of protoMessages(decodeProto(table), 2)) {
    for (const type of protoMessages(pkg, 3)) {
      if (protoString(type, 2) !== typeName) continue;
      for (const entry of protoMessages(type, 3)) {
        if (protoString(entry, 2) !== entryName) continue;
        for (const configValue of protoMessages(entry, 6)) {
          const item = protoMessage(protoMessage(configValue, 2) ?? new Map(), 4);
          if (!item) continue;
          const str = protoMessage(item, ITEM.str);
          const file = protoMessage(item, ITEM.file);
          const text = (str && protoString(str, 1)) ?? (file && protoString(file, 1));
          if (text !== undefined) values.push(text);
        }
      }
    }
  }
  return values;
}
