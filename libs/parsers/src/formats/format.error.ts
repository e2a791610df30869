/**
 * Bytes that contradict the layout their format reader expects. The readers serve package and
 * debug-file parsing alike, so each caller turns this into its own parse error, with its wording.
 */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
