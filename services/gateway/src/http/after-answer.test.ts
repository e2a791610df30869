import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { createLogger } from '@hangar/logger';
import { afterAnswer } from './after-answer';

describe('afterAnswer', () => {
  it('when the work throws after the answer, then the error is logged and the emitter (the response) never sees it', () => {
    const lines: string[] = [];
    const logger = createLogger({ service: 'gateway-test', level: 'info', destination: { write: (line: string) => lines.push(line) } });
    const res = new EventEmitter() as unknown as Response;
    afterAnswer(res, 'close', logger, 'audit entry', () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(() => res.emit('close')).not.toThrow();
    expect(lines.join('')).toMatch(/audit entry failed after the answer/);
    expect(lines.join('')).toMatch(/Maximum call stack size exceeded/);
  });
});
