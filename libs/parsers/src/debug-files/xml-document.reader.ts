import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

/**
 * Parses XML text, or answers undefined when it is not well-formed. Callers treat metadata files
 * (Info.plist, AndroidManifest.xml) as optional, so a broken one must not abort the whole parse.
 * xmldom never fetches external entities or DTDs, which keeps uploaded XML from reaching out.
 */
export function parseXmlDocument(text: string): Document | undefined {
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(message);
    },
  });
  try {
    return parser.parseFromString(text, 'text/xml');
  } catch {
    return undefined;
  }
}

export function childElements(parent: Element): Element[] {
  const children: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) children.push(node as Element);
  }
  return children;
}

/** Text of an XML buffer, without the UTF-8 byte order mark some editors write. */
export function decodeXmlText(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}
