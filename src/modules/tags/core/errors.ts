// The tags module's error codes: their rows (TAG_ERROR_CODES) go to the assembled catalogue
// through module.ts, and their types to the kernel's (src/core/error-codes.ts
// ModuleErrorCodes) by declaration merging, from the same rows.
// invalid-tag-list-urn and invalid-tag-urn stay in the kernel's catalogue: the kernel's URN
// parser answers them (src/core/ids/urn.ts).
const spec403 = { status: [403], defined: ['spec'] } as const;
const spec404 = { status: [404], defined: ['spec'] } as const;

export const TAG_ERROR_CODES = {
  'capacity-exceeded-tag': { status: [400], defined: ['ours'] },
  'too-many-tags': { status: [400], defined: ['ours'] },
  'list-tag-lists-forbidden': spec403,
  'view-tag-list-forbidden': spec403,
  'create-tag-list-forbidden': spec403,
  'update-tag-list-forbidden': spec403,
  'delete-tag-list-forbidden': spec403,
  'tag-list-not-found': spec404,
  'tag-not-found': spec404,
  'tag-list-pending': { status: [409], defined: ['ours'] },
} as const;

type TagErrorCodeRows = typeof TAG_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends TagErrorCodeRows {}
}
