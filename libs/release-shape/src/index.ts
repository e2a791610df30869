export { releaseFields, releaseUrls } from './release-fields';
export { debugFileLinks, debugFileUrl, releaseLinks } from './debug-file-links';
