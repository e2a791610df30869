import { EventEmitter } from 'node:events';
import { ROOT_CONTEXT, context, createContextKey, trace } from '@opentelemetry/api';
import { currentRequestId, runWithContext } from '@hangar/logger';
import { SharedScopeContextManager } from './shared-scope-context-manager';

const KEY = createContextKey('test value');
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('OpenTelemetry context kept in the request context store', () => {
  beforeAll(() => context.setGlobalContextManager(new SharedScopeContextManager()));
  afterAll(() => context.disable());

  it('when a trace context is entered inside a request, then both travel across awaits and timers, and each leaves the other as it was', async () => {
    await runWithContext({ requestId: 'req-1' }, async () => {
      await context.with(ROOT_CONTEXT.setValue(KEY, 'span-a'), async () => {
        await tick();
        expect(currentRequestId()).toBe('req-1');
        expect(context.active().getValue(KEY)).toBe('span-a');
        // A request context set inside keeps the trace; the trace set inside keeps the request.
        await runWithContext({ requestId: 'req-2' }, async () => {
          await tick();
          expect(context.active().getValue(KEY)).toBe('span-a');
          expect(currentRequestId()).toBe('req-2');
        });
        expect(currentRequestId()).toBe('req-1');
      });
      expect(context.active()).toBe(ROOT_CONTEXT);
      expect(currentRequestId()).toBe('req-1');
    });
    expect(currentRequestId()).toBeUndefined();
  });

  it('when a listener or a function is bound to a context, then it runs in that context wherever it is called from', async () => {
    const traced = ROOT_CONTEXT.setValue(KEY, 'bound');
    const emitter = context.bind(traced, new EventEmitter());
    const seen: unknown[] = [];
    emitter.on('event', () => seen.push(context.active().getValue(KEY)));
    const fn = context.bind(traced, () => context.active().getValue(KEY));
    await runWithContext({ requestId: 'elsewhere' }, async () => {
      emitter.emit('event');
      expect(fn()).toBe('bound');
    });
    expect(seen).toEqual(['bound']);
  });

  it('when a span is made active, then trace.getActiveSpan reads it from the shared store', () => {
    const span = trace.wrapSpanContext({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 0 });
    runWithContext({ requestId: 'r' }, () =>
      context.with(trace.setSpan(context.active(), span), () => {
        expect(trace.getActiveSpan()?.spanContext().spanId).toBe('00f067aa0ba902b7');
        expect(currentRequestId()).toBe('r');
      }),
    );
  });
});
