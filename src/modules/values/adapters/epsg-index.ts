// The SpatialReferenceCatalogue adapter: the EPSG dataset of the `epsg-index` package (every
// coordinate reference system of the EPSG registry, one JSON file). Only the fields the
// vendor's SpatialReferenceValue shows are kept (the WKT and PROJ strings are dropped).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { SpatialReferenceCatalogue, SpatialReferenceValue } from '../core/values.ts';

/** epsg-index's `kind` (CRS-<WKT 2 keyword>) in PROJ's words, as the vendor's `type` shows them. */
const TYPES: Readonly<Record<string, string>> = {
  'CRS-PROJCRS': 'projected',
  'CRS-GEOGCRS': 'geographic 2D',
  'CRS-GEOG3DCRS': 'geographic 3D',
  'CRS-GCENCRS': 'geocentric',
  'CRS-VERTCRS': 'vertical',
  'CRS-COMPOUNDCRS': 'compound',
  'CRS-ENGCRS': 'engineering',
  'CRS-DRVDCRS': 'derived projected',
};

interface EpsgEntry {
  code: string;
  kind: string;
  name: string;
}

export const epsgIndexCatalogue: SpatialReferenceCatalogue = {
  load(): SpatialReferenceValue[] {
    const file = createRequire(import.meta.url).resolve('epsg-index/all.json');
    const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, EpsgEntry>;
    return Object.values(all).map((e) => {
      const type = TYPES[e.kind];
      if (!type) throw new Error(`epsg-index: EPSG:${e.code} has the unknown kind ${e.kind}`);
      // The index holds the registry's valid systems only: none is deprecated.
      return { authName: 'EPSG', code: String(e.code), name: e.name, type, deprecated: false };
    });
  },
};
