// First import of main.ts: the SDK must patch node:http, grpc-js and the
// MongoDB driver before anything loads them.
import { startTelemetry } from '@hangar/telemetry';

export const telemetry = startTelemetry({ serviceName: 'hangar-webhooks' });
