// Pure rules of the multipart extension (docs/files.md "Multipart uploads").
import { FILE_WRITE, servedAs } from '../../files/index.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';

export const MULTIPART = {
  /** Part URLs signed, and held parts listed, per call. */
  maxPartsPerCall: 1000,
  /** The type the object is served with (never the uploader's): the single-URL flow's rule. */
  contentTypeOf: (extension: string) => servedAs(extension).contentType,
};

/**
 * Before a start's body (and so its extension) is read: holding the write permission of
 * some category in the zone (every alternative of every category, each once, in the
 * table's order). `start` then checks the category's own.
 */
export const ANY_FILE_WRITE: readonly (readonly Permission[])[] = (() => {
  const seen = new Map<string, readonly Permission[]>();
  for (const alternatives of Object.values(FILE_WRITE)) for (const alt of alternatives) seen.set(alt.join(' '), alt);
  return [...seen.values()];
})();
