import { z } from 'zod';
import { EventData } from './event-registry';
import { MalformedEventError, createEnvelope, parseEnvelope } from './envelope';

describe('event envelopes', () => {
  it('when a payload matches its schema, then the envelope carries id, type, version, time and source and round-trips', () => {
    const envelope = createEnvelope('scheme.deleted', { app_id: 1, scheme_id: 2 }, 'apps');

    expect(envelope).toMatchObject({ type: 'scheme.deleted', version: 1, source: 'apps', data: { app_id: 1, scheme_id: 2 } });
    expect(envelope.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(envelope.occurredAt).toISOString()).toBe(envelope.occurredAt);
    expect(parseEnvelope(JSON.stringify(envelope))).toEqual(envelope);
  });

  it('when a payload has the wrong shape, then createEnvelope refuses it', () => {
    const wrong = { app_id: 'seven' } as unknown as EventData<'app.deleted'>;
    const negative = { user_id: -1 } as EventData<'user.deleted'>;
    const missing = { app_id: 1 } as unknown as EventData<'scheme.deleted'>;

    expect(() => createEnvelope('app.deleted', wrong, 'apps')).toThrow(z.ZodError);
    expect(() => createEnvelope('user.deleted', negative, 'users')).toThrow(z.ZodError);
    expect(() => createEnvelope('scheme.deleted', missing, 'apps')).toThrow(z.ZodError);
  });

  it('when a message is not JSON, then parseEnvelope raises MalformedEventError', () => {
    expect(() => parseEnvelope('{not json')).toThrow(MalformedEventError);
    expect(() => parseEnvelope('{not json')).toThrow('event is not JSON');
  });

  it('when the envelope itself is incomplete, then parseEnvelope raises MalformedEventError', () => {
    const { id: _id, ...noId } = createEnvelope('app.deleted', { app_id: 1 }, 'apps');

    expect(() => parseEnvelope(JSON.stringify(noId))).toThrow(MalformedEventError);
    expect(() => parseEnvelope('42')).toThrow(MalformedEventError);
    expect(() => parseEnvelope('null')).toThrow(MalformedEventError);
  });

  it('when the type is unknown, then parseEnvelope raises MalformedEventError naming it', () => {
    const envelope = { ...createEnvelope('app.deleted', { app_id: 1 }, 'apps'), type: 'app.exploded' };

    expect(() => parseEnvelope(JSON.stringify(envelope))).toThrow(new MalformedEventError('unknown event type app.exploded'));
  });

  it('when a type name is only inherited from Object, then it is unknown too', () => {
    const envelope = { ...createEnvelope('app.deleted', { app_id: 1 }, 'apps'), type: 'toString' };

    expect(() => parseEnvelope(JSON.stringify(envelope))).toThrow(MalformedEventError);
  });

  it('when the payload does not match the schema of its type, then parseEnvelope raises MalformedEventError', () => {
    const envelope = { ...createEnvelope('app.deleted', { app_id: 1 }, 'apps'), data: { app_id: 'one' } };

    expect(() => parseEnvelope(JSON.stringify(envelope))).toThrow(/payload of app.deleted is invalid/);
    expect(() => parseEnvelope(JSON.stringify(envelope))).toThrow(MalformedEventError);
  });
});
