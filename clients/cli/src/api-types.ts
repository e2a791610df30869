import type { components, paths } from '@hangar/api-types';

/** The gateway's answers, as its OpenAPI document names them (@hangar/api-types). */
type Schemas = components['schemas'];

/**
 * A build. `sha256` (the server's hash of the bytes it received) is read when the
 * server sends it; the document does not name it yet.
 */
export type Release = Schemas['Release'] & { sha256?: string };
export type VersionList = Schemas['VersionList'];
export type DebugFile = Schemas['DebugFile'];
export type User = Schemas['User'];
export type TesterGroup = Schemas['TesterGroup'];
export type TestersAdded = Schemas['TestersAdded'];
export type ChannelTesterDevices = Schemas['ChannelTesterDevices'];
export type DirectUpload = paths['/api/direct_uploads']['post']['responses']['201']['content']['application/json'];
