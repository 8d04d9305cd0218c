// The groups module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (GROUP_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-group-urn and group-not-found stay in the kernel's catalogue: the members module
// answers them for a project's group member.
const spec403 = { status: [403], defined: ['spec'] } as const;

export const GROUP_ERROR_CODES = {
  'users-not-in-groups': { status: [400], defined: ['ours'] },
  'list-groups-forbidden': spec403,
  'view-group-forbidden': spec403,
  'create-group-forbidden': spec403,
  'update-group-forbidden': spec403,
  'delete-group-forbidden': spec403,
  'group-already-exists': { status: [409], defined: ['ours'] },
} as const;

type GroupErrorCodesRows = typeof GROUP_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends GroupErrorCodesRows {}
}
