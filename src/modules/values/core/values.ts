// The values lists (vendor API 2 "values"): the permission catalogue the engine evaluates
// (src/core/permissions/catalog.ts, spec "Permissions") and the spatial references a project
// may name (the EPSG dataset, through the SpatialReferenceCatalogue port). Both are the same
// for every caller; reading them needs only a valid access token.
import { PERMISSIONS } from '../../../core/permissions/catalog.ts';

/** A coordinate reference system as the vendor's SpatialReferenceValue describes it. */
export interface SpatialReferenceValue {
  /** The authority naming it (EPSG). */
  authName: string;
  code: string;
  name: string;
  /** The kind of system, in PROJ's words: "projected", "geographic 2D", "geocentric", "vertical", "compound"… */
  type: string;
  /** A deprecated system may stay on a project that has it, and is refused on a new one. */
  deprecated: boolean;
}

/** Port: where the spatial references come from (src/modules/values/adapters/epsg-index.ts). Read once, then kept. */
export interface SpatialReferenceCatalogue {
  load(): readonly SpatialReferenceValue[];
}

export interface PermissionValue {
  name: string;
}

export interface ValuesLists {
  /** Every permission of the spec, in its order: the names the engine evaluates and roles may hold. */
  permissions(): readonly PermissionValue[];
  /** Every spatial reference a project may name, by authority then code (the same array every call). */
  spatialReferences(): readonly SpatialReferenceValue[];
  /** The spatial reference `authName:code` (authority in any case), or undefined: what a project's spatialReference is checked against. */
  findSpatialReference(authName: string, code: string): SpatialReferenceValue | undefined;
}

const keyOf = (authName: string, code: string) => `${authName.toUpperCase()}:${code}`;

export function createValuesLists(catalogue: SpatialReferenceCatalogue): ValuesLists {
  const permissions: readonly PermissionValue[] = PERMISSIONS.map((name) => ({ name }));
  // The dataset is read the first time it is asked for (start-up does not pay for it).
  let loaded: { list: readonly SpatialReferenceValue[]; byKey: ReadonlyMap<string, SpatialReferenceValue> } | null = null;
  const spatial = () => {
    if (!loaded) {
      const list = [...catalogue.load()].sort((a, b) => a.authName.localeCompare(b.authName) || Number(a.code) - Number(b.code) || a.code.localeCompare(b.code));
      loaded = { list, byKey: new Map(list.map((s) => [keyOf(s.authName, s.code), s])) };
    }
    return loaded;
  };
  return {
    permissions: () => permissions,
    spatialReferences: () => spatial().list,
    findSpatialReference: (authName, code) => spatial().byKey.get(keyOf(authName, code)),
  };
}
