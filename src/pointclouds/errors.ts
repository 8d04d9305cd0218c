// The one error the point-cloud library throws for bad input: a file that is not what its
// name says, is cut short, corrupt, or uses a feature this library does not read. The
// `reason` is a stable word for the job's failure record; the message is for people.
// Anything else thrown from here is a bug or an I/O failure of the machine.

export type PointCloudErrorReason =
  /** The content is not the format the extension names (the message says what it looks like). */
  | 'wrong_format'
  | 'not_las'
  | 'truncated'
  | 'corrupt'
  /** A checksum (E57 page CRC-32C) does not match. */
  | 'checksum'
  | 'unsupported'
  | 'empty'
  | 'unknown_extension';

export class PointCloudError extends Error {
  readonly reason: PointCloudErrorReason;
  constructor(reason: PointCloudErrorReason, message: string) {
    super(message);
    this.name = 'PointCloudError';
    this.reason = reason;
  }
}
