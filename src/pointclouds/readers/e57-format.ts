// ASTM E2807 (E57) building blocks shared by the reader and the tests' writer: the file
// header, the paged layout (pages of `pageSize` bytes whose last 4 bytes are the CRC-32C
// of the rest, stored big-endian as every E57 implementation does), and the mapping
// between logical offsets (the data without checksums) and physical ones.

export const E57_SIGNATURE = 'ASTM-E57';
export const E57_HEADER_SIZE = 48;
export const CRC_SIZE = 4;

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256 * 4);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  // Slicing-by-4 tables.
  for (let i = 0; i < 256; i++) for (let s = 1; s < 4; s++) t[s * 256 + i] = (t[(s - 1) * 256 + i]! >>> 8) ^ t[t[(s - 1) * 256 + i]! & 0xff]!;
  return t;
})();

/** CRC-32C (Castagnoli) of `bytes[start, end)`. */
export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const t = CRC32C_TABLE;
  let c = 0xffffffff;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c = t[768 + (c & 0xff)]! ^ t[512 + ((c >>> 8) & 0xff)]! ^ t[256 + ((c >>> 16) & 0xff)]! ^ t[c >>> 24]!;
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface E57Header {
  versionMajor: number;
  versionMinor: number;
  physicalLength: number;
  xmlPhysicalOffset: number;
  xmlLogicalLength: number;
  pageSize: number;
}

export function parseE57Header(bytes: Uint8Array): E57Header | null {
  if (bytes.length < E57_HEADER_SIZE || new TextDecoder('latin1').decode(bytes.subarray(0, 8)) !== E57_SIGNATURE) return null;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    versionMajor: v.getUint32(8, true),
    versionMinor: v.getUint32(12, true),
    physicalLength: Number(v.getBigUint64(16, true)),
    xmlPhysicalOffset: Number(v.getBigUint64(24, true)),
    xmlLogicalLength: Number(v.getBigUint64(32, true)),
    pageSize: Number(v.getBigUint64(40, true)),
  };
}

export function writeE57Header(h: E57Header): Uint8Array {
  const out = new Uint8Array(E57_HEADER_SIZE);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode(E57_SIGNATURE), 0);
  v.setUint32(8, h.versionMajor, true);
  v.setUint32(12, h.versionMinor, true);
  v.setBigUint64(16, BigInt(h.physicalLength), true);
  v.setBigUint64(24, BigInt(h.xmlPhysicalOffset), true);
  v.setBigUint64(32, BigInt(h.xmlLogicalLength), true);
  v.setBigUint64(40, BigInt(h.pageSize), true);
  return out;
}

export const physicalToLogical = (physical: number, pageSize: number) => physical - Math.floor(physical / pageSize) * CRC_SIZE;
export const logicalToPhysical = (logical: number, pageSize: number) => {
  const data = pageSize - CRC_SIZE;
  return Math.floor(logical / data) * pageSize + (logical % data);
};

/** Compressed vector section header: id 1, section length, data and index physical offsets (32 bytes). */
export const CV_SECTION_HEADER_SIZE = 32;
export const DATA_PACKET = 1;
export const INDEX_PACKET = 0;
export const EMPTY_PACKET = 2;
