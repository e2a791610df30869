/**
 * Something the machine lacks (a tool, a toolchain), said in words a person
 * acts on: `npm run up` prints its message alone, without a stack trace,
 * because the stack would only hide the one line that matters.
 */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}
