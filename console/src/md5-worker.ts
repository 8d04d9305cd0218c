// The checksums of a multipart upload, off the page's thread (docs/console.md "Uploads"):
// reads the file once, in order, part by part, and posts each part's MD5 as soon as it is
// known (the page signs and sends that part meanwhile), then the whole file's MD5, or null
// where the store computes it from the parts (`whole: false`: each byte is hashed once).
// Memory: one part's bytes at a time.
import SparkMD5 from 'spark-md5';

export interface HashRequest {
  file: Blob;
  partSize: number;
  /** Whether to hash the whole file too (the store cannot compute it from the parts). */
  whole: boolean;
}
export type HashMessage = { partNumber: number; md5: string } | { whole: string | null } | { error: string };

const scope = self as unknown as { onmessage: ((e: MessageEvent<HashRequest>) => void) | null; postMessage(m: HashMessage): void };

scope.onmessage = (e) => {
  const { file, partSize } = e.data;
  void (async () => {
    try {
      const whole = e.data.whole ? new SparkMD5.ArrayBuffer() : null;
      const count = Math.ceil(file.size / partSize);
      for (let n = 1; n <= count; n++) {
        const bytes = await file.slice((n - 1) * partSize, Math.min(n * partSize, file.size)).arrayBuffer();
        whole?.append(bytes);
        scope.postMessage({ partNumber: n, md5: SparkMD5.ArrayBuffer.hash(bytes) });
      }
      scope.postMessage({ whole: whole ? whole.end() : null });
    } catch (err) {
      scope.postMessage({ error: (err as Error).message });
    }
  })();
};
