// The conversion job (docs/point-clouds.md "The module"): the file's bytes from the object
// store to a local work directory, src/pointclouds' converter to COPC (worker threads, its
// own checkpoints), the COPC file back to the store beside the file, then the row `done`.
// Progress goes to the row every second (and renews the job's lease, so that no other node
// takes a long conversion over). A node killed at any point leaves its lease to expire; the
// next claim (any node) resumes from the work directory when it is on the same disk, else
// starts over; the output is served only once the row says done, after the object is whole.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from '../../../core/errors.ts';
import type { JobHandler } from '../../jobs/index.ts';
import { LEASE_MS } from '../../jobs/index.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { JobRecord } from '../../../core/ports/job-handler.ts';
import { blobKey } from '../../../core/ports/object-store.ts';
import { errorFields, type Logger } from '../../../core/ports/telemetry.ts';
import {
  UnreadablePointCloud, type ConversionProgressRow, type PointCloudConverter, type PointCloudObjects, type PointCloudRecord, type PointCloudRepos,
} from './ports.ts';
import './errors.ts';

export const COPC_CONTENT_TYPE = 'application/vnd.laszip+copc';
/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 1000;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const CONVERSION_JOB_STORE = storeUseOf<PointCloudRepos>()({ reads: ['files', 'jobs', 'pointClouds'], writes: ['pointClouds'] });

export interface ConversionJobDeps {
  store: SliceOf<typeof CONVERSION_JOB_STORE, PointCloudRepos>;
  clock: Clock;
  objects: PointCloudObjects;
  converter: PointCloudConverter;
  /** Local directory of the conversions in hand (one sub-directory per file, kept across a crash). */
  workRoot: string;
  logger: Logger;
}

export interface ConversionJob extends JobHandler {
  /** Interrupts the conversion in hand (the node stops): the attempt fails and resumes later from its checkpoints. */
  abort(): void;
}

const fileIdOf = (job: JobRecord): string => String(job.payload.fileId);

export function createConversionJob(deps: ConversionJobDeps): ConversionJob {
  const { clock, objects, converter, logger } = deps;
  const store = sliceOf(deps.store, CONVERSION_JOB_STORE);
  let controller = new AbortController();

  /** Progress rows written one at a time, at most every second; the last one always. */
  function progressWriter(row: PointCloudRecord, job: JobRecord) {
    let last = 0;
    let writing: Promise<void> = Promise.resolve();
    let next: ConversionProgressRow | null = null;
    const write = () => {
      const p = next;
      next = null;
      if (!p) return;
      last = Date.now();
      writing = writing.then(async () => {
        const now = clock.now();
        await store.repos.pointClouds.progress(row.fileId, p, now);
        await store.repos.jobs.extendLease(job.id, new Date(now.getTime() + LEASE_MS));
      }).catch((e: unknown) => logger.warn({ fileId: row.fileId, ...errorFields(e) }, 'point-cloud progress not recorded'));
    };
    return {
      report(p: ConversionProgressRow, force = false) {
        next = p;
        if (force || Date.now() - last >= PROGRESS_EVERY_MS) write();
      },
      async flush() {
        write();
        await writing;
      },
    };
  }

  async function fetchInput(row: PointCloudRecord, key: string, md5: string, size: number, dir: string, ext: string): Promise<string> {
    const input = path.join(dir, `input.${ext}`);
    const marker = path.join(dir, 'input.md5');
    const have = await fs.readFile(marker, 'utf8').catch(() => null);
    const stat = await fs.stat(input).catch(() => null);
    // Kept from an earlier attempt: the converter's checkpoints name its size and time.
    if (have === md5 && stat?.size === size) return input;
    await fs.rm(marker, { force: true });
    const part = `${input}.part`;
    const got = await objects.download(key, part);
    if (!got) throw new DomainError('not-found', 'file-not-found', `The object of file ${row.fileId} is missing from the store`);
    await fs.rename(part, input);
    await fs.writeFile(marker, md5);
    return input;
  }

  async function run(job: JobRecord): Promise<unknown> {
    const fileId = fileIdOf(job);
    const dir = path.join(deps.workRoot, fileId);
    const row = await store.repos.pointClouds.byFile(fileId);
    // Done or deleted: what a node killed after the commit left behind goes too.
    if (!row || row.state === 'done') {
      await fs.rm(dir, { recursive: true, force: true });
      return { skipped: row ? 'already converted' : 'the file was deleted' };
    }
    const file = await store.repos.files.byRef(row.projectId, { uuid: fileId });
    if (!file) return { skipped: 'the file was deleted' };
    if (!(await store.repos.pointClouds.markConverting(fileId, clock.now()))) return { skipped: 'already converted' };

    await fs.mkdir(dir, { recursive: true });
    const progress = progressWriter(row, job);
    const signal = controller.signal;
    try {
      const format = converter.formatOf(file.extension);
      if (!format) throw new UnreadablePointCloud('unknown_extension', `.${file.extension} is not a point-cloud format`);
      progress.report({ phase: 'downloading', pointsRead: 0, pointsTotal: 0, percent: 0, etaSeconds: null }, true);
      const input = await fetchInput(row, blobKey(row.projectId, file.blobName), file.md5, file.size, dir, file.extension.toLowerCase());
      signal.throwIfAborted();
      const output = path.join(dir, 'output.copc.laz');
      const result = await converter.convert({
        input, name: `${file.name}.${file.extension}`, format, output, workDir: path.join(dir, 'work'), signal,
        onProgress: (p) => progress.report(p.phase === 'done' ? { ...p, phase: 'uploading' } : p, p.phase === 'done'),
      });
      await progress.flush();
      await objects.upload(blobKey(row.projectId, row.outputBlobName), output, COPC_CONTENT_TYPE);
      await store.transaction((repos) =>
        repos.pointClouds.markDone(fileId, { pointCount: result.pointCount, bounds: result.bounds, outputSize: result.bytes, nodes: result.nodes }, clock.now()),
      );
      await fs.rm(dir, { recursive: true, force: true });
      return { pointCount: result.pointCount, nodes: result.nodes, bytes: result.bytes, seconds: result.seconds, resumed: result.resumed };
    } catch (e) {
      await progress.flush();
      if (e instanceof UnreadablePointCloud) {
        // The file is not what its extension says, or is cut short or corrupt: final, with its reason.
        await store.repos.pointClouds.markFailed(fileId, e.reason, e.message, clock.now());
        await fs.rm(dir, { recursive: true, force: true });
        throw new DomainError('invalid', 'point-cloud-unreadable', e.message, { reason: e.reason });
      }
      if (!(e instanceof DomainError)) await store.repos.pointClouds.markRetrying(fileId, e instanceof Error ? e.message : String(e), clock.now());
      throw e;
    }
  }

  return {
    run,
    /** Attempts spent (or a DomainError), after job.finished committed: the row says failed, with the last error, unless it already does. */
    async failed(job, error) {
      await store.repos.pointClouds.markFailed(fileIdOf(job), 'error', error, clock.now());
    },
    abort() {
      controller.abort(new Error('the node is stopping; the conversion resumes from its checkpoints'));
      controller = new AbortController();
    },
  };
}
