import { decodeXmlText, parseXmlDocument } from './xml-document.reader';

export interface AndroidManifestInfo {
  packageName?: string;
  versionName?: string;
  versionCode?: string;
}

const ANDROID_NAMESPACE = 'http://schemas.android.com/apk/res/android';
// Compiled (AXML) manifests start with the RES_XML_TYPE chunk header: type 0x0003, header size 0x0008.
const AXML_SIGNATURE = Buffer.from([0x03, 0x00, 0x08, 0x00]);

/**
 * Package and versions from a plain-text AndroidManifest.xml, as the Android Gradle plugin keeps
 * next to mapping.txt. Binary AXML (a manifest copied out of an APK) and malformed XML give
 * undefined: the manifest is optional and the upload form carries the versions.
 */
export function readAndroidManifest(bytes: Buffer): AndroidManifestInfo | undefined {
  if (bytes.subarray(0, AXML_SIGNATURE.length).equals(AXML_SIGNATURE)) return undefined;
  const root = parseXmlDocument(decodeXmlText(bytes))?.documentElement;
  if (!root || root.tagName !== 'manifest') return undefined;
  const info: AndroidManifestInfo = {};
  const packageName = root.getAttribute('package');
  if (packageName) info.packageName = packageName;
  const versionName = root.getAttributeNS(ANDROID_NAMESPACE, 'versionName');
  if (versionName) info.versionName = versionName;
  const versionCode = root.getAttributeNS(ANDROID_NAMESPACE, 'versionCode');
  if (versionCode) info.versionCode = versionCode;
  return info;
}
