// Positioned reads that fail clearly when the file is shorter than what its header promised.
import type { FileHandle } from 'node:fs/promises';
import { PointCloudError } from '../errors.ts';

export async function readExactly(fh: FileHandle, position: number, length: number, fileName: string, what: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(bytes, done, length - done, position + done);
    if (bytesRead === 0) {
      throw new PointCloudError('truncated', `${fileName} is cut short: ${what} needs ${length} bytes at offset ${position}, the file ends ${done} bytes in`);
    }
    done += bytesRead;
  }
  return bytes;
}
