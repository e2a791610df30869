import { ResourceExhausted } from '@hangar/errors';
import { runWithContext } from '@hangar/logger';
import type { Request, Response } from 'express';
import { rememberCaller } from '../http/caller-context';
import { LocalAttempts } from './local-attempts';
import { limitingRetraces } from './retrace-limit';
import { TooManyAttempts } from './too-many-attempts';

type Clients = Parameters<typeof limitingRetraces>[0];

describe('retraces per address', () => {
  const rule = { name: 'retrace', maxFailures: 3, windowMs: 60_000 };
  let served: number;
  const clients = () => {
    served = 0;
    const debugFiles = { retrace: async () => ({ stackTrace: `served ${++served}`, debugFileId: 1 }) } as unknown as Clients['debugFiles'];
    return limitingRetraces({ debugFiles }, new LocalAttempts(), rule);
  };
  // A request from `address`, as the gateway's middleware records it.
  const asRequestFrom = <T>(address: string, fn: () => Promise<T>) =>
    runWithContext({ requestId: `req-${address}` }, () => {
      rememberCaller({ ip: address, method: 'POST', path: '/api/debug_files/retrace' } as Request, {} as Response, () => undefined);
      return fn();
    });
  const retrace = (limited: Clients, address: string) => asRequestFrom(address, () => limited.debugFiles.retrace({ channelKey: 'k', releaseVersion: '1', buildVersion: '1', stackTrace: 'at a.b()' }));

  it('when one address asks for more retraces than the rule allows, then the next is 429 with a wait and the service is not asked', async () => {
    const limited = clients();
    for (let i = 0; i < 3; i++) await retrace(limited, '203.0.113.7');
    const refused = await retrace(limited, '203.0.113.7').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TooManyAttempts);
    expect(refused).toBeInstanceOf(ResourceExhausted);
    expect((refused as TooManyAttempts).retryAfterSeconds).toBeGreaterThan(0);
    expect(served).toBe(3);
  });

  it('when the wrapped clients are assigned back onto the object they came from (as main.ts does), then a retrace still reaches the service once', async () => {
    served = 0;
    const shared = { debugFiles: { retrace: async () => ({ stackTrace: `served ${++served}`, debugFileId: 1 }) } as unknown as Clients['debugFiles'] };
    Object.assign(shared, limitingRetraces(shared, new LocalAttempts(), rule));
    await expect(retrace(shared, '203.0.113.7')).resolves.toEqual({ stackTrace: 'served 1', debugFileId: 1 });
  });

  it('when another address asks, then its own count applies', async () => {
    const limited = clients();
    for (let i = 0; i < 3; i++) await retrace(limited, '203.0.113.7');
    await expect(retrace(limited, '198.51.100.9')).resolves.toEqual({ stackTrace: 'served 4', debugFileId: 1 });
  });
});
