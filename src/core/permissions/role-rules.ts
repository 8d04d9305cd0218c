// Project and work-zone roles (spec "Project and work zone roles", CONTRACT §5): the
// Role permission enum, the combination table, and the legacy ↔ new equivalence.
import type { Permission } from './catalog.ts';

/** Allowed values of Role.permissions, in the spec's order. */
export const ROLE_PERMISSIONS = [
  'project:project:delete', 'project:project:update-details', 'workzone:workzones:write', 'workzone:workzones:read',
  'workzone:annotations:write', 'workzone:annotations:read', 'workzone:measurements:write', 'workzone:measurements:read',
  'workzone:share-links:write', 'workzone:share-links:read', 'workzone:own-share-links:write',
  'workzone:own-share-links:read', 'workzone:reality-data:read', 'workzone:reality-data:write',
  'workzone:reality-data:transform', 'workzone:cad-model:transform', 'workzone:cad-model:read',
  'workzone:import-jobs-reality-data:write', 'workzone:export-jobs-reality-data:read',
  'workzone:export-jobs-reality-data:write', 'workzone:documents:write', 'workzone:documents:read',
  'workzone:members:write', 'workzone:tags:write', 'workzone:tags:read', 'workzone:savedviews:write',
  'workzone:savedviews:read', 'workzone:model-reports:read', 'workzone:model-reports:write',
  'workzone:progress-monitoring-jobs:read', 'workzone:progress-monitoring-jobs:write',
  'workzone:own-progress-monitoring-jobs:read', 'workzone:own-progress-monitoring-jobs:write',
] as const satisfies readonly Permission[];
export type RolePermission = (typeof ROLE_PERMISSIONS)[number];

export const LEGACY_PERMISSIONS = [
  'create_project', 'workzone', 'view3d', 'annotate', 'measure', 'share', 'upload', 'download', 'upload_doc',
  'manage_users', 'create_asset', 'view_asset', 'view_annotation', 'manage_savedview', 'view_savedview', 'manage_cipm',
] as const;
export type LegacyPermission = (typeof LEGACY_PERMISSIONS)[number];

/** The spec's "permission combinations a role may hold", whole rows (all permissions). */
export const COMBINATION_ROWS: readonly (readonly Permission[])[] = [
  ['project:project:update-details', 'project:project:delete'],
  ['workzone:workzones:read', 'workzone:workzones:write'],
  ['workzone:reality-data:read', 'workzone:crops:read'],
  ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write'],
  ['workzone:reality-data:transform'],
  ['workzone:export-jobs-reality-data:write'],
  ['workzone:annotations:read'],
  ['workzone:annotations:read', 'workzone:annotations:write'],
  ['workzone:measurements:read', 'workzone:measurements:write', 'workzone:crops:write'],
  ['workzone:share-links:read', 'workzone:share-links:write'],
  ['workzone:own-share-links:read', 'workzone:own-share-links:write'],
  ['workzone:documents:read', 'workzone:documents:write'],
  ['workzone:tags:read'],
  ['workzone:tags:write'],
  ['workzone:savedviews:read'],
  ['workzone:savedviews:read', 'workzone:savedviews:write'],
  ['workzone:members:write'],
  [
    'workzone:progress-monitoring-jobs:read', 'workzone:progress-monitoring-jobs:write',
    'workzone:own-progress-monitoring-jobs:read', 'workzone:own-progress-monitoring-jobs:write',
    'workzone:model-reports:read', 'workzone:model-reports:write',
  ],
  [
    'workzone:cad-model:read', 'workzone:cad-model:write', 'workzone:own-import-jobs-cad-model:read',
    'workzone:own-import-jobs-cad-model:write', 'workzone:import-jobs-cad-model:read',
    'workzone:import-jobs-cad-model:write',
  ],
  ['workzone:cad-model:transform'],
  ['workzone:video3d:write', 'workzone:import-video3d:write'],
];

const ROLE_SET: ReadonlySet<string> = new Set(ROLE_PERMISSIONS);
export const isRolePermission = (p: string): p is RolePermission => ROLE_SET.has(p);

/**
 * Rows restricted to the Role enum (CONTRACT §5); an enum value no row names
 * (`workzone:export-jobs-reality-data:read`) is a row of its own. Empty rows drop out.
 */
export const ROLE_ROWS: readonly (readonly RolePermission[])[] = (() => {
  const rows = COMBINATION_ROWS.map((r) => r.filter(isRolePermission)).filter((r) => r.length > 0);
  const named = new Set(rows.flat());
  for (const p of ROLE_PERMISSIONS) if (!named.has(p)) rows.push([p]);
  return rows;
})();

/** True when `perms` is a union of whole rows: every member is covered by a row inside the set. */
export function isUnionOfRows(perms: readonly RolePermission[]): boolean {
  const set = new Set<string>(perms);
  return perms.every((p) => ROLE_ROWS.some((row) => row.includes(p) && row.every((q) => set.has(q))));
}

/** The legacy ↔ new table (CONTRACT §5). */
export const LEGACY_EXPANSION: Record<LegacyPermission, readonly RolePermission[]> = {
  create_project: ['project:project:update-details', 'project:project:delete'],
  workzone: ['workzone:workzones:read', 'workzone:workzones:write'],
  view3d: ['workzone:reality-data:read'],
  annotate: ['workzone:annotations:read', 'workzone:annotations:write'],
  view_annotation: ['workzone:annotations:read'],
  measure: ['workzone:measurements:read', 'workzone:measurements:write'],
  share: ['workzone:share-links:read', 'workzone:share-links:write'],
  upload: ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write'],
  download: ['workzone:export-jobs-reality-data:read', 'workzone:export-jobs-reality-data:write'],
  upload_doc: ['workzone:documents:read', 'workzone:documents:write'],
  manage_users: ['workzone:members:write'],
  create_asset: ['workzone:tags:write'],
  view_asset: ['workzone:tags:read'],
  manage_savedview: ['workzone:savedviews:read', 'workzone:savedviews:write'],
  view_savedview: ['workzone:savedviews:read'],
  manage_cipm: [
    'workzone:progress-monitoring-jobs:read', 'workzone:progress-monitoring-jobs:write',
    'workzone:own-progress-monitoring-jobs:read', 'workzone:own-progress-monitoring-jobs:write',
    'workzone:model-reports:read', 'workzone:model-reports:write',
  ],
};

/** Role permissions with no legacy form. */
export const WITHOUT_LEGACY: ReadonlySet<RolePermission> = new Set<RolePermission>([
  'workzone:own-share-links:read', 'workzone:own-share-links:write', 'workzone:reality-data:transform',
  'workzone:cad-model:read', 'workzone:cad-model:transform',
]);

const inEnumOrder = (set: ReadonlySet<string>): RolePermission[] => ROLE_PERMISSIONS.filter((p) => set.has(p));

export function expandLegacy(legacy: readonly LegacyPermission[]): RolePermission[] {
  return inEnumOrder(new Set(legacy.flatMap((l) => LEGACY_EXPANSION[l])));
}

/** Every legacy name whose expansion the permissions contain. */
export function legacyOf(perms: readonly RolePermission[]): LegacyPermission[] {
  const set = new Set<string>(perms);
  return LEGACY_PERMISSIONS.filter((l) => LEGACY_EXPANSION[l].every((p) => set.has(p)));
}

export type RoleRuleFailure =
  | { rule: 'missing'; message: string }
  | { rule: 'combination'; message: string; permissions: RolePermission[] }
  | { rule: 'mismatch'; message: string; expected: RolePermission[] };

/**
 * Resolves a role's permission pair from what the caller gave (CONTRACT §5). Answers the
 * canonical pair, or the rule it breaks.
 */
export function resolveRolePermissions(
  permissions: readonly RolePermission[] | null | undefined,
  legacy: readonly LegacyPermission[] | null | undefined,
): { permissions: RolePermission[]; legacyPermissions: LegacyPermission[] } | RoleRuleFailure {
  const hasNew = !!permissions && permissions.length > 0;
  const hasLegacy = !!legacy && legacy.length > 0;
  if (!hasNew && !hasLegacy) {
    return { rule: 'missing', message: 'permissions or legacyPermissions must be given and non-empty' };
  }
  if (!hasNew) {
    const expanded = expandLegacy(legacy!);
    return { permissions: expanded, legacyPermissions: LEGACY_PERMISSIONS.filter((l) => legacy!.includes(l)) };
  }
  const perms = inEnumOrder(new Set(permissions!));
  if (!isUnionOfRows(perms)) {
    return {
      rule: 'combination',
      message: 'permissions must be a union of whole rows of the allowed combinations',
      permissions: perms,
    };
  }
  if (!hasLegacy) return { permissions: perms, legacyPermissions: legacyOf(perms) };
  const expected = expandLegacy(legacy!);
  const withLegacyForm = perms.filter((p) => !WITHOUT_LEGACY.has(p));
  const same = expected.length === withLegacyForm.length && expected.every((p, i) => p === withLegacyForm[i]);
  if (!same) {
    return {
      rule: 'mismatch',
      message: 'legacyPermissions and permissions are not equivalent',
      expected,
    };
  }
  return { permissions: perms, legacyPermissions: LEGACY_PERMISSIONS.filter((l) => legacy!.includes(l)) };
}

/**
 * At evaluation, a role holding the enum members of a row holds the whole row
 * (`reality-data:read` also grants `crops:read`, `cad-model:read` the CAD row).
 */
export function effectiveRolePermissions(perms: readonly string[]): Set<Permission> {
  const set = new Set<string>(perms);
  const out = new Set<Permission>(perms.filter(isRolePermission));
  for (const row of COMBINATION_ROWS) {
    const enumPart = row.filter(isRolePermission);
    if (enumPart.length > 0 && enumPart.every((p) => set.has(p))) for (const p of row) out.add(p);
  }
  return out;
}

/** The base roles every account has (CONTRACT §5). */
export const BASE_ROLES: readonly { name: string; description: string; color: string; legacy: readonly LegacyPermission[] | 'all' }[] = [
  { name: 'Manager', description: 'Every project and work zone permission', color: '#0b5cad', legacy: 'all' },
  {
    name: 'Contributor',
    description: 'Views and contributes reality data, annotations, measurements, documents, tags and saved views',
    color: '#2e8540',
    legacy: [
      'view3d', 'annotate', 'view_annotation', 'measure', 'upload', 'download', 'upload_doc', 'create_asset',
      'view_asset', 'manage_savedview', 'view_savedview',
    ],
  },
  {
    name: 'Viewer',
    description: 'Views reality data, annotations, tags and saved views',
    color: '#6b7785',
    legacy: ['view3d', 'view_annotation', 'view_asset', 'view_savedview'],
  },
];

export function basePermissions(legacy: readonly LegacyPermission[] | 'all') {
  if (legacy === 'all') return { permissions: [...ROLE_PERMISSIONS], legacyPermissions: [...LEGACY_PERMISSIONS] };
  return { permissions: expandLegacy(legacy), legacyPermissions: [...legacy] };
}
