import { ROOT_CONTEXT, context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { runWithContext } from '@hangar/logger';
import { createEnvelope } from './envelope';
import { newOutbox, withEvents } from './outbox';

describe('outbox fields', () => {
  const first = createEnvelope('app.deleted', { app_id: 1 }, 'apps');
  const second = createEnvelope('scheme.deleted', { app_id: 1, scheme_id: 2 }, 'apps');

  it('when a document is created with events, then they are pending with the request id of the context', () => {
    const fields = runWithContext({ requestId: 'req-1' }, () => newOutbox(first, second));

    expect(fields.outboxPending).toBe(true);
    expect(fields.outboxSeq).toBe(1);
    expect(fields.outbox.map((e) => e.id)).toEqual([first.id, second.id]);
    expect(fields.outbox[0]).toMatchObject({ type: 'app.deleted', requestId: 'req-1' });
    expect(JSON.parse(fields.outbox[1]!.payload)).toEqual(second);
  });

  it('when events are recorded inside a span, then each entry keeps its traceparent (the relay continues that trace); outside one, none', () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      const ids = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
      const inside = context.with(trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(ids)), () => newOutbox(first));
      const update = context.with(trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(ids)), () => withEvents({}, second));
      expect(inside.outbox[0]!.traceparent).toBe(`00-${ids.traceId}-${ids.spanId}-01`);
      expect((update.$push as { outbox: { $each: { traceparent?: string }[] } }).outbox.$each[0]!.traceparent).toBe(`00-${ids.traceId}-${ids.spanId}-01`);
      expect(newOutbox(first).outbox[0]).not.toHaveProperty('traceparent');
    } finally {
      context.disable();
      propagation.disable();
    }
  });

  it('when a document is created without events, then nothing is pending', () => {
    expect(newOutbox()).toEqual({ outbox: [], outboxSeq: 0, outboxPending: false });
  });

  it('when events are added to an update, then its own operators are kept and the outbox ones merged in', () => {
    const update = withEvents({ $set: { name: 'x' }, $inc: { count: 1 }, $push: { tags: 'a' } }, first);

    expect(update.$set).toEqual({ name: 'x', outboxPending: true });
    expect(update.$inc).toEqual({ count: 1, outboxSeq: 1 });
    expect(update.$push).toEqual({ tags: 'a', outbox: { $each: [expect.objectContaining({ id: first.id })] } });
  });
});
