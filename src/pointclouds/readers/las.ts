// LAS 1.0–1.4 and LAZ, streamed. LAS records are read a batch at a time; LAZ is decoded a
// chunk at a time by laz-perf (the maintained WASM build of the LAZ reference, formats 0–3
// and 6–8), the chunk boundaries coming from the file's chunk table (decoded here: it is
// the one part of a LAZ file laz-perf's chunk decoder does not read). Memory: one batch,
// or one compressed chunk and one batch.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createLazPerf } from 'laz-perf';
import { ArithmeticDecoder, IntegerDecompressor } from '../laz/arithmetic.ts';
import { PointCloudError } from '../errors.ts';
import {
  formatHasColor, formatHasGpsTime, isRecordLayout, parseEvlrs, parseLasHeader, parseLazVlr, parseVlrs, toRecords, type LasHeader, type LazInfo,
} from '../las-format.ts';
import { RECORD_SIZE, type CloudInfo, type RecordBatch } from '../record.ts';
import { readExactly } from './file-bytes.ts';
import { DEFAULT_BATCH_POINTS, type PointCloudReader } from './reader.ts';

type LazPerfModule = Awaited<ReturnType<typeof createLazPerf>>;
let lazPerfModule: Promise<LazPerfModule> | undefined;
/** One laz-perf instance per thread (its WASM heap grows to the largest chunk read). */
export const lazPerf = (): Promise<LazPerfModule> => (lazPerfModule ??= createLazPerf());

const LAZ_FORMATS = new Set([0, 1, 2, 3, 6, 7, 8]);

interface Chunk {
  offset: number;
  bytes: number;
  points: number;
}

/** Decodes a LAZ chunk table (LASzip: version, count, then arithmetic-coded sizes and, for variable chunks, counts). */
export function decodeChunkTable(bytes: Uint8Array, variable: boolean, fileName: string): { count?: number; bytes: number }[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8) throw new PointCloudError('corrupt', `${fileName}: the LAZ chunk table is cut short`);
  if (v.getUint32(0, true) !== 0) throw new PointCloudError('corrupt', `${fileName}: unknown LAZ chunk table version ${v.getUint32(0, true)}`);
  const count = v.getUint32(4, true);
  const out: { count?: number; bytes: number }[] = [];
  if (count === 0) return out;
  try {
    const dec = new ArithmeticDecoder(bytes, 8);
    const ic = new IntegerDecompressor(32, 2);
    let countPred = 0;
    let sizePred = 0;
    for (let i = 0; i < count; i++) {
      if (variable) countPred = ic.decompress(dec, countPred, 0);
      sizePred = ic.decompress(dec, sizePred, 1);
      out.push(variable ? { count: countPred >>> 0, bytes: sizePred >>> 0 } : { bytes: sizePred >>> 0 });
    }
  } catch (e) {
    throw new PointCloudError('corrupt', `${fileName}: the LAZ chunk table cannot be decoded (${(e as Error).message})`);
  }
  return out;
}

class LasReader implements PointCloudReader {
  readonly format: 'las' | 'laz';
  readonly info: CloudInfo;
  private readonly fh: fs.FileHandle;
  private readonly header: LasHeader;
  private readonly chunks: Chunk[];
  private readonly fileName: string;

  constructor(fh: fs.FileHandle, fileName: string, header: LasHeader, info: CloudInfo, chunks: Chunk[]) {
    this.fh = fh;
    this.fileName = fileName;
    this.header = header;
    this.info = info;
    this.chunks = chunks;
    this.format = header.compressed ? 'laz' : 'las';
    if (!header.compressed) this.rangeBatches = (first, count, batchPoints = DEFAULT_BATCH_POINTS) => this.lasBatches(batchPoints, first, count);
  }

  readonly rangeBatches?: (first: number, count: number, batchPoints?: number) => AsyncGenerator<RecordBatch>;

  async *batches(batchPoints = DEFAULT_BATCH_POINTS): AsyncGenerator<RecordBatch> {
    if (this.header.compressed) yield* this.lazBatches(batchPoints);
    else yield* this.lasBatches(batchPoints);
  }

  private async *lasBatches(batchPoints: number, first = 0, total = this.header.pointCount - first): AsyncGenerator<RecordBatch> {
    const h = this.header;
    if (first < 0 || total < 0 || first + total > h.pointCount) throw new RangeError(`points ${first}–${first + total - 1} are not in a file of ${h.pointCount}`);
    for (let done = 0; done < total; ) {
      const count = Math.min(batchPoints, total - done);
      const at = first + done;
      const raw = await readExactly(this.fh, h.pointDataOffset + at * h.recordLength, count * h.recordLength, this.fileName, `point ${at + 1}`);
      if (isRecordLayout(h.pointFormat, h.recordLength)) yield { bytes: raw, count };
      else {
        const bytes = new Uint8Array(count * RECORD_SIZE);
        toRecords(h.pointFormat, h.recordLength, raw, count, bytes);
        yield { bytes, count };
      }
      done += count;
    }
  }

  private async *lazBatches(batchPoints: number): AsyncGenerator<RecordBatch> {
    const h = this.header;
    const lp = await lazPerf();
    const out = lp._malloc(h.recordLength);
    let batch = new Uint8Array(batchPoints * RECORD_SIZE);
    let raw = new Uint8Array(batchPoints * h.recordLength);
    let filled = 0;
    let remaining = h.pointCount;
    try {
      for (const chunk of this.chunks) {
        if (remaining <= 0) break;
        const compressed = await readExactly(this.fh, chunk.offset, chunk.bytes, this.fileName, 'a LAZ chunk');
        const input = lp._malloc(chunk.bytes + 64);
        const decoder = new lp.ChunkDecoder();
        try {
          lp.HEAPU8.set(compressed, input);
          lp.HEAPU8.fill(0, input + chunk.bytes, input + chunk.bytes + 64);
          decoder.open(h.pointFormat, h.recordLength, input);
          const points = Math.min(chunk.points, remaining);
          for (let i = 0; i < points; i++) {
            decoder.getPoint(out);
            raw.set(lp.HEAPU8.subarray(out, out + h.recordLength), filled * h.recordLength);
            if (++filled === batchPoints) {
              toRecords(h.pointFormat, h.recordLength, raw, filled, batch);
              yield { bytes: batch, count: filled };
              batch = new Uint8Array(batchPoints * RECORD_SIZE);
              raw = new Uint8Array(batchPoints * h.recordLength);
              filled = 0;
            }
          }
          remaining -= points;
        } catch (e) {
          if (e instanceof PointCloudError) throw e;
          throw new PointCloudError('corrupt', `${this.fileName}: a LAZ chunk at offset ${chunk.offset} cannot be decoded (${String(e)})`);
        } finally {
          decoder.delete();
          lp._free(input);
        }
      }
      if (filled) {
        toRecords(h.pointFormat, h.recordLength, raw, filled, batch);
        yield { bytes: batch.subarray(0, filled * RECORD_SIZE), count: filled };
      }
      if (remaining > 0) throw new PointCloudError('truncated', `${this.fileName}: the LAZ chunks hold ${h.pointCount - remaining} of the ${h.pointCount} points the header announces`);
    } finally {
      lp._free(out);
    }
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

async function lazChunks(fh: fs.FileHandle, fileName: string, fileSize: number, header: LasHeader, laz: LazInfo): Promise<Chunk[]> {
  if (!LAZ_FORMATS.has(header.pointFormat)) {
    throw new PointCloudError('unsupported', `${fileName}: LAZ point format ${header.pointFormat} (waveform) is not supported; formats 0–3 and 6–8 are`);
  }
  if (laz.compressor !== 2 && laz.compressor !== 3) {
    throw new PointCloudError('unsupported', `${fileName}: LAZ compressor ${laz.compressor} is not supported (the chunked compressors 2 and 3 are)`);
  }
  const at = await readExactly(fh, header.pointDataOffset, 8, fileName, 'the LAZ chunk table offset');
  let tableOffset = Number(new DataView(at.buffer).getBigInt64(0, true));
  if (tableOffset === -1) {
    // Written while streaming: the offset is in the file's last 8 bytes.
    const tail = await readExactly(fh, fileSize - 8, 8, fileName, 'the LAZ chunk table offset');
    tableOffset = Number(new DataView(tail.buffer).getBigInt64(0, true));
  }
  if (!(tableOffset > header.pointDataOffset && tableOffset < fileSize)) {
    throw new PointCloudError('corrupt', `${fileName}: the LAZ chunk table offset ${tableOffset} is outside the file`);
  }
  const tableEnd = header.evlrOffset > tableOffset ? header.evlrOffset : fileSize;
  const table = decodeChunkTable(await readExactly(fh, tableOffset, tableEnd - tableOffset, fileName, 'the LAZ chunk table'), laz.chunkSize === 0xffffffff, fileName);
  const chunks: Chunk[] = [];
  let offset = header.pointDataOffset + 8;
  let left = header.pointCount;
  for (const entry of table) {
    const points = entry.count ?? Math.min(laz.chunkSize, left);
    chunks.push({ offset, bytes: entry.bytes, points });
    offset += entry.bytes;
    left -= points;
  }
  if (offset > tableOffset) throw new PointCloudError('corrupt', `${fileName}: the LAZ chunk table describes more bytes than the point data holds`);
  return chunks;
}

/** Opens a LAS or LAZ file: reads its header and VLRs, and (LAZ) its chunk table. */
export async function openLas(file: string): Promise<PointCloudReader> {
  const fileName = path.basename(file);
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = new Uint8Array(Math.min(size, 65536));
    await fh.read(head, 0, head.length, 0);
    const header = parseLasHeader(head, fileName);
    const upToPoints = header.pointDataOffset <= head.length ? head.subarray(0, header.pointDataOffset) : await readExactly(fh, 0, header.pointDataOffset, fileName, 'the header and VLRs');
    const vlrs = parseVlrs(upToPoints, header, fileName);
    if (header.evlrCount > 0 && header.evlrOffset > 0 && header.evlrOffset < size) {
      const tail = await readExactly(fh, header.evlrOffset, Math.min(size - header.evlrOffset, 1 << 20), fileName, 'the EVLRs');
      vlrs.push(...parseEvlrs(tail, header.evlrOffset, header.evlrCount));
    }
    const lazVlr = vlrs.find((v) => v.userId === 'laszip encoded' && v.recordId === 22204);
    let chunks: Chunk[] = [];
    if (header.compressed) {
      if (!lazVlr) throw new PointCloudError('corrupt', `${fileName}: the point format is marked compressed but the file has no LASzip record`);
      const laz = parseLazVlr(await readExactly(fh, lazVlr.dataOffset, lazVlr.dataLength, fileName, 'the LASzip record'), fileName);
      chunks = await lazChunks(fh, fileName, size, header, laz);
    } else if (header.pointDataOffset + header.pointCount * header.recordLength > size) {
      throw new PointCloudError(
        'truncated',
        `${fileName} is cut short: ${header.pointCount} points of ${header.recordLength} bytes need ${header.pointDataOffset + header.pointCount * header.recordLength} bytes, the file has ${size}`,
      );
    }
    const wktVlr = vlrs.find((v) => v.userId === 'LASF_Projection' && v.recordId === 2112 && v.dataLength > 0);
    const wkt = wktVlr
      ? new TextDecoder().decode(await readExactly(fh, wktVlr.dataOffset, wktVlr.dataLength, fileName, 'the WKT record')).replace(/\0+$/, '') || undefined
      : undefined;
    const info: CloudInfo = {
      pointCount: header.pointCount,
      quantization: { scale: header.scale, offset: header.offset },
      bounds: { min: [header.min[0], header.min[1], header.min[2]], max: [header.max[0], header.max[1], header.max[2]] },
      gpsTimeStandard: (header.globalEncoding & 1) === 1,
      hasColor: formatHasColor(header.pointFormat),
      hasGpsTime: formatHasGpsTime(header.pointFormat),
      ...(wkt ? { wkt } : {}),
    };
    return new LasReader(fh, fileName, header, info, chunks);
  } catch (e) {
    await fh.close();
    throw e;
  }
}
