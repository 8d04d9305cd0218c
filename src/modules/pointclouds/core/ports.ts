// The ports of the pointclouds module: its table (the conversion of each point-cloud file,
// migration 0023) and the bytes it moves through the object store (the ObjectStore port
// signs URLs only: a conversion downloads the input and uploads the COPC output, and the
// range route reads parts of it).
import type { Readable } from 'node:stream';
import type { Repos, Store } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { JobsRepos } from '../../jobs/index.ts';

/**
 * pending: registered, not yet queued (the intake task queues it within seconds);
 * queued: a job waits for a node; converting: a node works on it (progress below);
 * done: the COPC object is stored whole and served; failed: for good, `reason` says why.
 */
export type PointCloudState = 'pending' | 'queued' | 'converting' | 'done' | 'failed';

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export type ConversionPhase = 'downloading' | 'counting' | 'distributing' | 'indexing' | 'writing' | 'uploading' | 'done';

export interface PointCloudRecord {
  fileId: string;
  projectId: string;
  /** The COPC object's blob name, beside the file's: `<file blob name>.copc.laz`. */
  outputBlobName: string;
  state: PointCloudState;
  jobId: string | null;
  phase: ConversionPhase | null;
  pointsRead: number;
  pointsTotal: number;
  /** 0–100. */
  percent: number;
  etaSeconds: number | null;
  /** A PointCloudError reason (wrong_format, truncated, corrupt, …) or `error` for a failure of the machine. */
  reason: string | null;
  message: string | null;
  pointCount: number | null;
  bounds: Bounds | null;
  outputSize: number | null;
  nodes: number | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
}

export interface ConversionProgressRow {
  phase: ConversionPhase;
  pointsRead: number;
  pointsTotal: number;
  percent: number;
  etaSeconds: number | null;
}

export interface ConversionOutcome {
  pointCount: number;
  bounds: Bounds;
  outputSize: number;
  nodes: number;
}

export interface PointCloudsRepo {
  byFile(fileId: string): Promise<PointCloudRecord | null>;
  /** Pending rows, oldest first, locked for the caller's transaction (FOR UPDATE SKIP LOCKED: one node queues each). */
  claimPending(limit: number): Promise<PointCloudRecord[]>;
  markQueued(fileId: string, jobId: string, now: Date): Promise<void>;
  /** A node starts (or resumes) the conversion; false when the row is gone or already done. */
  markConverting(fileId: string, now: Date): Promise<boolean>;
  progress(fileId: string, p: ConversionProgressRow, now: Date): Promise<void>;
  /** A failed attempt that the job runner retries: back to queued, the message kept for the API. */
  markRetrying(fileId: string, message: string, now: Date): Promise<void>;
  markDone(fileId: string, outcome: ConversionOutcome, now: Date): Promise<void>;
  /** Failed for good (a file that is not what its extension says, or the attempts spent); a done or failed row stays as it is (the first reason is kept). */
  markFailed(fileId: string, reason: string, message: string, now: Date): Promise<void>;
}

/** The node's store as this module sees it: the kernel's repositories (files, jobs) and its own. */
/** The repositories the module's use cases reach: the kernel's and its own. */
export type PointCloudRepos = Repos & FilesRepos & JobsRepos & { pointClouds: PointCloudsRepo };
export type PointCloudStore = Store<PointCloudRepos>;

/** The converter (adapters/converter.ts over src/pointclouds): streaming, worker threads, its own checkpoints in `workDir`. */
export interface PointCloudConverter {
  /** The input format of an extension, or null when it is not a point cloud. */
  formatOf(extension: string): string | null;
  /**
   * Converts `input` to a COPC file at `output`; run again with the same work directory after
   * a crash, it continues from its last checkpoint. Bad input throws UnreadablePointCloud.
   */
  convert(o: {
    input: string;
    /** The file's name as its owner knows it: failure messages name it (never the local path). */
    name: string;
    format: string;
    output: string;
    workDir: string;
    signal: AbortSignal;
    onProgress: (p: ConversionProgressRow) => void;
  }): Promise<{ pointCount: number; bounds: Bounds; nodes: number; bytes: number; seconds: number; resumed: boolean }>;
}

/** The input is not what its extension says, cut short, corrupt or unsupported: a final failure with its reason. */
export class UnreadablePointCloud extends Error {
  override name = 'UnreadablePointCloud';
  /** wrong_format, not_las, truncated, corrupt, checksum, unsupported, empty, unknown_extension. */
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The object store's bytes, streamed (src/modules/pointclouds/storage). */
export interface PointCloudObjects {
  /** Streams an object to a local file (created or replaced); null when there is no such object. */
  download(key: string, toFile: string): Promise<{ size: number } | null>;
  /** Stores a local file as an object, whole or not at all (size and MD5 checked by the store). */
  upload(key: string, fromFile: string, contentType: string): Promise<void>;
  /** Bytes start..end (inclusive) of an object, streamed; null when there is no such object. */
  readRange(key: string, start: number, end: number): Promise<Readable | null>;
}

/** An axis-aligned box in a cloud's coordinates, both corners inclusive (a share link's box limit). */
export interface BoxLimit {
  min: [number, number, number];
  max: [number, number, number];
}

/** A node of a COPC hierarchy: where its LAZ chunk lies in the object. */
export interface CopcNodeEntry {
  pointCount: number;
  offset: number;
  length: number;
}

/** What a box-limited reader needs of a COPC object: its header's facts and every node. */
export interface CopcLayout {
  pointFormat: 6 | 7;
  scale: [number, number, number];
  offset: [number, number, number];
  /** The octree's root cube: minimum corner and edge. */
  cube: { min: [number, number, number]; size: number };
  /** The root's point spacing (COPC info). */
  spacing: number;
  /** Nodes by key "d-x-y-z", every hierarchy page read. */
  nodes: Map<string, CopcNodeEntry>;
}

export type NodeVerdict = 'outside' | 'inside' | 'boundary';

/** The COPC format's side of the box limit (src/pointclouds: copc.js for the hierarchy, box-filter.ts). */
export interface CopcNodes {
  /** Reads the header and every hierarchy page of a COPC object through `read` (byte ranges, end exclusive). */
  layout(read: (begin: number, end: number) => Promise<Uint8Array>): Promise<CopcLayout>;
  /** Whether a node's cube is outside the box, inside it, or crosses its faces. */
  verdict(layout: CopcLayout, key: string, box: BoxLimit): NodeVerdict;
  /** A boundary node's chunk with only its points inside the box, re-encoded. */
  filter(layout: CopcLayout, chunk: Uint8Array, pointCount: number, box: BoxLimit): Promise<{ chunk: Uint8Array; pointCount: number }>;
}

/** Extensions of the files converted to COPC (migration 0023's trigger names the same four). */
export const POINT_CLOUD_EXTENSIONS: ReadonlySet<string> = new Set(['e57', 'las', 'laz', 'ply']);
