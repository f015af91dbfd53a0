/** Where in the snapshot a problem was found, when it is one field or value. */
export interface SnapshotErrorDetail {
  /** The header word, parameter or agent column, e.g. `capacity` or `px[17]`. */
  readonly field?: string;
  /** Byte offset of the field in the snapshot. */
  readonly offset?: number;
  /** The value found there. */
  readonly value?: unknown;
}

/** Thrown when snapshot bytes cannot be restored; nothing is changed. */
export class SnapshotError extends Error {
  readonly field?: string;
  readonly offset?: number;
  readonly value?: unknown;
  constructor(message: string, detail: SnapshotErrorDetail = {}) {
    super(message);
    this.name = 'SnapshotError';
    this.field = detail.field;
    this.offset = detail.offset;
    this.value = detail.value;
  }
}
