// The tags module's error codes: their rows (TAG_ERROR_CODES) go to the assembled catalogue
// through module.ts, and their types to the kernel's (src/core/error-codes.ts
// ModuleErrorCodes) by declaration merging, from the same rows.
// invalid-tag-list-urn and invalid-tag-urn stay in the kernel's catalogue: the kernel's URN
// parser answers them (src/core/ids/urn.ts).
import { codeRow } from '../../../core/error-codes.ts';

export const TAG_ERROR_CODES = {
  'capacity-exceeded-tag': { status: [400], defined: ['ours'] },
  'too-many-tags': { status: [400], defined: ['ours'] },
  'list-tag-lists-forbidden': codeRow(403, 'spec'),
  'view-tag-list-forbidden': codeRow(403, 'spec'),
  'create-tag-list-forbidden': codeRow(403, 'spec'),
  'update-tag-list-forbidden': codeRow(403, 'spec'),
  'delete-tag-list-forbidden': codeRow(403, 'spec'),
  'tag-list-not-found': codeRow(404, 'spec'),
  'tag-not-found': codeRow(404, 'spec'),
  'tag-list-pending': { status: [409], defined: ['ours'] },
} as const;

type TagErrorCodeRows = typeof TAG_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends TagErrorCodeRows {}
}
