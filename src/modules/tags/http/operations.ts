// The operation docs of the tags module's routes (src/http/operation-docs.ts): what each does,
// the permission src/modules/tags/core/tag-lists.ts checks (docs/tags.md), the codes it answers.
import {
  API1_PROJECT_PATH, API1_PROJECT_ERRORS as PROJECT1, API2_PROJECT_PATH as P2, API2_PROJECT_ERRORS as PROJECT2, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER,
  type OperationTable,
} from '../../../http/operation-docs.ts';

const L1 = `${API1_PROJECT_PATH}/tag-lists`;
const T2 = `${P2}/tag-lists/{tagListRef}`;
const TAG_LIST = ['invalid-tag-list-urn', 'tag-list-not-found'] as const;
/** A change that adds tags, or one to a list under detection. */
const TAG_CHANGES = ['capacity-exceeded-tag', 'too-many-tags', 'tag-list-pending'] as const;

export const TAG_API1_OPERATIONS: OperationTable = {
  [`GET ${L1}`]: {
    does: 'The tag lists of the work zones where the caller holds `workzone:tags:read`; with `since`, only those updated after it.',
    permission: `${MEMBER} with \`workzone:tags:read\` on at least one work zone.`,
    errors: [...PROJECT1, INPUT, 'list-tag-lists-forbidden'],
  },
  [`POST ${L1}`]: {
    does: 'Creates a tag list in the work zone `parentId`, optionally with tags (`insert`) and an AI detection (`detect`).',
    permission: '`workzone:tags:write` on the work zone; with `detect`, `workzone:reality-data:read` + `workzone:export-jobs-reality-data:write` on each scan\'s work zone.',
    errors: [...PROJECT1, INPUT, ...TAG_CHANGES, 'create-tag-list-forbidden', 'update-tag-list-forbidden', 'workzone-not-found'],
  },
  [`GET ${L1}/{tagListId}`]: {
    does: 'The tags of a list; with `since`, the changes after it, deletions as deleted-tag markers.',
    permission: `${MEMBER} with \`workzone:tags:read\` on the list's work zone.`,
    errors: [...PROJECT1, INPUT, 'view-tag-list-forbidden', 'tag-list-not-found'],
  },
  [`PUT ${L1}/{tagListId}`]: {
    does: 'Updates a tag list: its data, and tags inserted, updated and deleted, in one transaction; `detect` launches an AI detection.',
    permission: '`workzone:tags:write` on the list\'s work zone; with `detect`, `workzone:reality-data:read` + `workzone:export-jobs-reality-data:write` on each scan\'s work zone.',
    errors: [...PROJECT1, INPUT, ...TAG_CHANGES, 'update-tag-list-forbidden', 'tag-list-not-found'],
  },
  [`DELETE ${L1}/{tagListId}`]: {
    does: 'Deletes a tag list: answers a deleted-tag marker per tag it held.',
    permission: '`workzone:tags:write` on the list\'s work zone.',
    errors: [...PROJECT1, 'delete-tag-list-forbidden', 'tag-list-not-found', 'tag-list-pending'],
  },
};

export const TAG_API2_OPERATIONS: OperationTable = {
  'GET /api/2/values/ai-detection-classes': { does: 'The classes an AI detection may look for. A fixed list, the same for every caller.', errors: [] },
  [`GET ${P2}/tag-lists`]: {
    does: 'The tag lists of the work zones where the caller holds `workzone:tags:read`.',
    permission: `${MEMBER} with \`workzone:tags:read\` on at least one work zone.`,
    errors: [...PROJECT2, 'list-tag-lists-forbidden'],
  },
  [`POST ${P2}/tag-lists`]: {
    does: 'Creates a tag list in a work zone, optionally with tags.',
    permission: '`workzone:tags:write` on the work zone.',
    errors: [...PROJECT2, ...WORKZONE, INPUT, ...TAG_CHANGES, 'create-tag-list-forbidden'],
  },
  [`POST ${P2}/tag-lists/bulk-update`]: {
    does: 'Overwrites several tag lists (all or nothing).',
    permission: '`workzone:tags:write` on each list\'s work zone (and on a new one it moves to).',
    errors: [...PROJECT2, INPUT, ...TAG_LIST, ...TAG_CHANGES, 'update-tag-list-forbidden'],
  },
  [`POST ${P2}/tag-lists/bulk-delete`]: {
    does: 'Deletes several tag lists and their tags (all or nothing).',
    permission: '`workzone:tags:write` on each list\'s work zone.',
    errors: [...PROJECT2, INPUT, ...TAG_LIST, 'delete-tag-list-forbidden', 'tag-list-pending'],
  },
  [`GET ${T2}`]: { does: 'One tag list (without its tags).', permission: `${MEMBER} with \`workzone:tags:read\` on its work zone.`, errors: [...PROJECT2, ...TAG_LIST, 'view-tag-list-forbidden'] },
  [`PUT ${T2}`]: {
    does: 'Overwrites a tag list (a missing field is erased); a new work zone moves it.',
    permission: '`workzone:tags:write` on its work zone (and on the new one when it moves).',
    errors: [...PROJECT2, INPUT, ...TAG_LIST, ...TAG_CHANGES, 'update-tag-list-forbidden'],
  },
  [`DELETE ${T2}`]: { does: 'Deletes a tag list and its tags.', permission: '`workzone:tags:write` on its work zone.', errors: [...PROJECT2, ...TAG_LIST, 'delete-tag-list-forbidden', 'tag-list-pending'] },
  [`POST ${T2}/ai-detection`]: {
    does: 'Launches an AI detection of some classes on some scans: the list is `pending`, and refuses changes, until the detection ends.',
    permission: '`workzone:tags:write` on the list\'s work zone, and `workzone:reality-data:read` + `workzone:export-jobs-reality-data:write` on each scan\'s work zone.',
    errors: [...PROJECT2, INPUT, ...TAG_LIST, 'update-tag-list-forbidden', 'file-not-found', 'tag-list-pending'],
  },
  [`GET ${T2}/tags`]: {
    does: 'The tags of a list; with `afterVersion` > 0, every change after that version, deleted tags included (`isDeleted`).',
    permission: `${MEMBER} with \`workzone:tags:read\` on the list's work zone.`,
    errors: [...PROJECT2, INPUT, ...TAG_LIST, 'view-tag-list-forbidden'],
  },
  [`POST ${T2}/tags/bulk`]: {
    does: 'Creates, updates and deletes tags of a list in one transaction (all or nothing); geometry is validated (docs/tags.md).',
    permission: '`workzone:tags:write` on the list\'s work zone.',
    errors: [...PROJECT2, INPUT, ...TAG_LIST, ...TAG_CHANGES, 'update-tag-list-forbidden'],
  },
  [`POST ${T2}/tags/bulk-move`]: {
    does: 'Moves tags from source lists into this one; the sources keep them as deleted.',
    permission: '`workzone:tags:write` on the target list\'s work zone and on every source list\'s.',
    errors: [...PROJECT2, INPUT, ...TAG_LIST, ...TAG_CHANGES, 'update-tag-list-forbidden'],
  },
};
