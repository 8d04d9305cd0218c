// The groups module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (GROUP_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-group-urn and group-not-found stay in the kernel's catalogue: the members module
// answers them for a project's group member.
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    'users-not-in-groups': { status: readonly [400]; defined: readonly ['ours'] };
    'list-groups-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'view-group-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'create-group-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'update-group-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'delete-group-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'group-already-exists': { status: readonly [409]; defined: readonly ['ours'] };
  }
}

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
