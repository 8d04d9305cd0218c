// The values module's public face: what other modules and the wiring may import from it.
export type { PermissionValue, SpatialReferenceValue, ValuesLists } from './core/values.ts';
