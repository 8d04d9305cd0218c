// What every reader offers the converter: what the file says of its cloud, and its points
// as batches in the pipeline's record layout (record.ts), read as a stream so that memory
// stays bounded whatever the file's size.
import type { CloudInfo, RecordBatch } from '../record.ts';

export type InputFormat = 'las' | 'laz' | 'ply' | 'e57';

export interface PointCloudReader {
  readonly format: InputFormat;
  readonly info: CloudInfo;
  /**
   * The points in file order, `batchPoints` at most per batch (each batch is a fresh
   * buffer the caller may keep). Each call reads the file again from the start. Fails
   * with a PointCloudError when the file turns out short or corrupt on the way.
   */
  batches(batchPoints?: number): AsyncGenerator<RecordBatch>;
  /**
   * Records `first` to `first + count − 1` in file order, as `batches` gives them; present
   * where a point is found without reading those before it and reading costs about as much
   * as copying (raw LAS): the converter's workers then each read a range of the file, and
   * nothing is spilled. Other inputs are decoded once, to a spill file read by range.
   */
  rangeBatches?(first: number, count: number, batchPoints?: number): AsyncGenerator<RecordBatch>;
  /**
   * True when `info` is what the file declares, unchecked against its points (an E57 whose
   * XML bounds every scan). `batches` then fails with DeclaredBoundsExceeded when a point
   * lies beyond what the declared bounds' quantization can hold; the caller measures and
   * reads again (or measures first, when it cannot start over).
   */
  readonly unchecked?: boolean;
  /** Reads every point to measure `info` (the bounds, the count); `unchecked` is false after. */
  measure?(): Promise<void>;
  close(): Promise<void>;
}

/** A point beyond the quantization the file's declared bounds gave (they were wrong): measure, then read again. */
export class DeclaredBoundsExceeded extends Error {
  constructor(fileName: string) {
    super(`${fileName}: a point lies beyond the bounds the file declares`);
    this.name = 'DeclaredBoundsExceeded';
  }
}

export const DEFAULT_BATCH_POINTS = 65_536;
