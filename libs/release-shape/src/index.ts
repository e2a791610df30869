export { releaseFields, releaseUrls } from './release-fields';
