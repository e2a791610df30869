import { ResourceExhausted } from '@hangar/errors';

/** 429 with `Retry-After`: the error handler answers the wait it carries. */
export class TooManyAttempts extends ResourceExhausted {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
