// The operation docs of the pnid module's route (src/http/operation-docs.ts).
import type { OperationTable } from '../../../http/operation-docs.ts';

export const PNID_OPERATIONS: OperationTable = {
  'POST /api/2/accounts/{accountRef}/projects/{projectRef}/tag-lists/{tagListRef}/pnid-elements/bulk-add': {
    does: 'Adds each instrument and pipe of the body as one tag on the page of the 2d tag list it names (attachment id and page index), all or nothing: ' +
      'a konva shape (an instrument\'s closed rectangle, a pipe\'s polyline), `pageId`, `class`, `confidence`, `nature: "AI"`. Existing tags are never changed; ' +
      'sending the same elements twice adds them twice. A page that is not on the list, a page without elements or a list that is not `2d` is refused.',
    permission: '`workzone:tags:read` and `workzone:tags:write` on the list\'s work zone.',
    errors: ['invalid-account-urn', 'account-not-found', 'invalid-project-urn', 'project-not-found', 'not-member-of-project', 'deleted-project',
      'invalid-tag-list-urn', 'tag-list-not-found', 'view-tag-list-forbidden', 'update-tag-list-forbidden', 'invalid-input', 'too-many-tags', 'capacity-exceeded-tag', 'tag-list-pending'],
  },
};
