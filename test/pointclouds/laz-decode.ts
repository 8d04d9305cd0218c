// laz-perf (the maintained WASM build of the LAZ reference) as the independent decoder of
// the chunks this project writes.
import { createLazPerf } from 'laz-perf';

type LazPerfModule = Awaited<ReturnType<typeof createLazPerf>>;
let lazPerf: Promise<LazPerfModule> | undefined;
export const loadLazPerf = () => (lazPerf ??= createLazPerf());

/** Decodes one LAZ chunk of `count` points of format 6/7 with laz-perf's ChunkDecoder. */
export async function decodeChunkWithLazPerf(format: number, recordLength: number, chunk: Uint8Array, count: number): Promise<Uint8Array> {
  const lp = await loadLazPerf();
  const input = lp._malloc(chunk.length);
  const output = lp._malloc(recordLength);
  const decoder = new lp.ChunkDecoder();
  try {
    lp.HEAPU8.set(chunk, input);
    decoder.open(format, recordLength, input);
    const points = new Uint8Array(count * recordLength);
    for (let i = 0; i < count; i++) {
      decoder.getPoint(output);
      points.set(lp.HEAPU8.subarray(output, output + recordLength), i * recordLength);
    }
    return points;
  } finally {
    decoder.delete();
    lp._free(input);
    lp._free(output);
  }
}
