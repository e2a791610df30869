import { escapeHtml } from './html';

export interface ManifestInput {
  packageUrl: string;
  iconUrl: string;
  bundleId: string;
  bundleVersion: string;
  title: string;
}

/** The over-the-air install manifest iOS reads from an itms-services link. */
export function iosManifest({ packageUrl, iconUrl, bundleId, bundleVersion, title }: ManifestInput): string {
  const x = escapeHtml;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>items</key>
  <array>
    <dict>
      <key>assets</key>
      <array>
        <dict><key>kind</key><string>software-package</string><key>url</key><string>${x(packageUrl)}</string></dict>
        <dict><key>kind</key><string>display-image</string><key>url</key><string>${x(iconUrl)}</string></dict>
        <dict><key>kind</key><string>full-size-image</string><key>url</key><string>${x(iconUrl)}</string></dict>
      </array>
      <key>metadata</key>
      <dict>
        <key>bundle-identifier</key><string>${x(bundleId)}</string>
        <key>bundle-version</key><string>${x(bundleVersion)}</string>
        <key>kind</key><string>software</string>
        <key>title</key><string>${x(title)}</string>
      </dict>
    </dict>
  </array>
</dict>
</plist>
`;
}
