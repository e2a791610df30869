import { loadGatewayConfig } from './config';

// What every gateway needs; the rest takes its defaults.
const REQUIRED = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'access', S3_SECRET_KEY: 'secret', NATS_URL: 'nats://127.0.0.1:4222' };

describe('gateway config: connection timeouts', () => {
  it('when nothing is set, then a 4 GiB upload at 10 MB/s fits in the request timeout (Node’s own 5 minutes cut it off)', () => {
    const config = loadGatewayConfig(REQUIRED);
    const secondsFor4GiBAt10MBps = config.MAX_UPLOAD_BYTES / 10_000_000;
    expect(config.HTTP_REQUEST_TIMEOUT_MS).toBeGreaterThan(secondsFor4GiBAt10MBps * 1000);
    expect(config.HTTP_IDLE_TIMEOUT_MS).toBeGreaterThan(config.UPLOAD_DEADLINE_MS);
  });

  it('when the idle timeout is not longer than the upload deadline, then the config is refused with the reason', () => {
    expect(() => loadGatewayConfig({ ...REQUIRED, HTTP_IDLE_TIMEOUT_MS: '60000', UPLOAD_DEADLINE_MS: '180000' })).toThrow(/HTTP_IDLE_TIMEOUT_MS: must be longer than UPLOAD_DEADLINE_MS/);
    expect(loadGatewayConfig({ ...REQUIRED, HTTP_IDLE_TIMEOUT_MS: '0' }).HTTP_IDLE_TIMEOUT_MS).toBe(0);
  });
});

describe('gateway config: download counting', () => {
  it('when nothing is set, then downloads are counted; DOWNLOAD_COUNTING=false turns it off; a typo is refused', () => {
    expect(loadGatewayConfig(REQUIRED).DOWNLOAD_COUNTING).toBe(true);
    expect(loadGatewayConfig({ ...REQUIRED, DOWNLOAD_COUNTING: 'false' }).DOWNLOAD_COUNTING).toBe(false);
    expect(() => loadGatewayConfig({ ...REQUIRED, DOWNLOAD_COUNTING: 'sometimes' })).toThrow(/DOWNLOAD_COUNTING/);
  });
});
