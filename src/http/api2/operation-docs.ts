// The description of the API 2 operations of src/core's modules (src/http/operation-docs.ts; the
// slices', the token service's among them, are in their contracts): what each does, the permission
// the use case checks (src/core/…), the codes it answers.
import {
  API2_ACCOUNT_PATH as A, API2_ACCOUNT_ERRORS as ACCOUNT, API2_PROJECT_PATH as P, API2_PROJECT_ERRORS as PROJECT, API2_WORKZONE_PATH as W, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER,
  type OperationTable,
} from '../operation-docs.ts';


/** src/core/files/file-permissions.ts WRITE. */
export const FILE_WRITE =
  'on the work zone, the write permission of the file\'s category: `workzone:reality-data:write` + `workzone:import-jobs-reality-data:write` ' +
  '(scans, geo images, sitemaps, gaussian splats), `workzone:cad-model:write` or `workzone:documents:write` (3D/CAD models), ' +
  '`workzone:model-reports:write` (model reports), `workzone:video3d:write` (360 videos), `workzone:documents:write` (documents, media, other files, archives)';
/** src/core/files/file-permissions.ts READ. */
const FILE_READ =
  'on the file\'s work zone, the read permission of its category: `workzone:reality-data:read` (scans, geo images, sitemaps, gaussian splats), ' +
  '`workzone:cad-model:read` or `workzone:documents:read` (3D/CAD models), `workzone:model-reports:read`, `workzone:video3d:read`, ' +
  '`workzone:documents:read` (documents, media, other files, archives); a crop cover: `workzone:crops:read`; ' +
  'the project cover: whoever sees the project (a member, or `project:project:list`)';
const UPLOAD = ['unknown-blob-name', 'blob-not-uploaded', 'blob-mismatch', 'upload-expired'] as const;
const VALUES = 'A fixed list, the same for every caller.';
const WH = `${A}/webhooks/{webhookRef}`;
const WEBHOOK = [...ACCOUNT, 'invalid-webhook-urn', 'webhook-not-found'] as const;
const WEBHOOK_READ = '`account:integrations:read` (the account owner and administrators).';
const WEBHOOK_WRITE = '`account:integrations:write` (the account owner and administrators).';

export const API2_OPERATIONS: OperationTable = {
  // The caller's own invitations: our extension (docs/security.md "Invitations").
  'GET /api/2/me/invitations': {
    does: 'The caller\'s pending invitations to accounts (joining an account is an invitation the user accepts), oldest first. Not in the vendor\'s API.',
    errors: [],
  },
  'POST /api/2/me/invitations/{accountRef}/accept': {
    does: 'Accepts the caller\'s invitation to the account: he becomes a member with the account roles it gives, and his project grants there take effect. Answers 204. Not in the vendor\'s API.',
    errors: [...ACCOUNT, { code: 'account-not-found', when: 'the caller has no pending invitation to that account' }],
  },
  'POST /api/2/me/invitations/{accountRef}/decline': {
    does: 'Declines the caller\'s invitation to the account; the project grants waiting with it go. Answers 204. Not in the vendor\'s API.',
    errors: [...ACCOUNT],
  },

  // Values.
  'GET /api/2/values/formats': {
    does: `The file formats: extension, format id and category (scan, model, geoImage, document, …); a file's category comes from its extension. ${VALUES}`,
    errors: [],
  },
  'GET /api/2/values/ai-detection-classes': { does: `The classes an AI detection may look for. ${VALUES}`, errors: [] },

  // Users of an account (src/core/users/account-users.ts).
  [`GET ${A}/users`]: {
    does:
      'The users of the account, then the users invited and not yet accepted (`pending: true`: only the address the inviter wrote and the id); ' +
      '`accountRoles` lists only the roles the caller may read.',
    permission: '`account:users:read`, or `workzone:members:write` on some work zone of the account.',
    errors: [...ACCOUNT, 'list-users-forbidden'],
  },
  [`GET ${A}/users/{userRef}`]: { does: 'One user of the account.', permission: '`account:users:read`.', errors: [...ACCOUNT, 'invalid-user-urn', 'view-user-forbidden', 'user-not-found'] },
  [`POST ${A}/users/bulk-invite`]: {
    does:
      'Invites users by e-mail, optionally with account roles. Idempotent, all or nothing. A member gets the roles he misses. Anyone else ' +
      '(new to the service or not) gets a pending invitation, which he accepts after signing in (or by setting his first password from the ' +
      'e-mailed link); the answer shows of him only the address sent, his id and `pending: true`. At most `INVITE_MAX_PER_REQUEST` ' +
      'addresses (100) per request, `INVITE_MAX_PER_ACCOUNT_DAY` new invitations (500) per account per day (429 `too-many-invitations` ' +
      'with Retry-After, nothing changed); a recipient gets at most `INVITE_MAILS_PER_RECIPIENT_DAY` invitation mails (3) a day.',
    permission:
      '`account:users:write` (or `workzone:members:write` on some work zone, for users invited without account roles); each account role given needs its write permission: ' +
      '`account:administrators:write`, `account:project-managers:write`, `account:project-listers:write`.',
    errors: [...ACCOUNT, INPUT, 'create-user-forbidden', 'too-many-invitations'],
  },
  [`DELETE ${A}/members`]: {
    does:
      'Removes users from the account (and from its projects); for a pending invitee, withdraws the invitation. The account owner cannot be ' +
      'removed, nor a user who owns projects of the account.',
    permission: '`account:users:write`, plus the write permission of every account role the user holds.',
    errors: [...ACCOUNT, INPUT, 'remove-user-from-account-forbidden', 'delete-account-owner-forbidden', 'user-not-found'],
  },
  [`PUT ${A}/members/{userRef}/roles`]: {
    does: 'Sets the account roles (administrator, projectManager, projectLister) of a user of the account (of a pending invitee: those accepting will give).',
    permission: '`account:users:write`, plus the write permission of every role added or removed (`account:administrators:write`, `account:project-managers:write`, `account:project-listers:write`).',
    errors: [...ACCOUNT, INPUT, 'invalid-user-urn', 'update-user-account-roles-forbidden', 'user-not-found'],
  },

  // Projects (src/core/projects/projects.ts).
  [`GET ${A}/projects`]: {
    does:
      'The active and deleted projects of the account that the caller sees: those he is a member of, and all of them with `account:projects:list`. ' +
      'The answer is gzip-coded when `Accept-Encoding` accepts gzip (`Vary: Accept-Encoding`), and carries a strong `ETag`: ' +
      '`If-None-Match` naming it answers 304 without a body (docs/performance.md, "The project list").',
    permission: '`account:account:read` (every account member).',
    errors: [...ACCOUNT, 'list-projects-forbidden'],
  },
  [`POST ${A}/projects`]: {
    does: 'Creates a project with its root work zone on an active subscription of the account; the caller becomes its owner.',
    permission: '`account:projects:create` (project managers).',
    errors: [...ACCOUNT, INPUT, 'subscription-not-active', 'create-project-forbidden', 'subscription-not-found'],
  },
  [`GET ${P}`]: { does: 'One project, deleted ones included.', permission: 'a project member, or `project:project:list` (through `account:projects:list`).', errors: [...ACCOUNT, 'invalid-project-urn', 'not-member-of-project', 'project-not-found'] },
  [`PUT ${P}`]: {
    does: 'Overwrites a project (a missing field is erased); may change its owner or subscription.',
    permission: '`project:project:update-details` to change its details; `project:project:update-owner` and `project:project:update-subscription` to change its owner or subscription.',
    errors: [...PROJECT, INPUT, 'subscription-not-active', 'update-project-forbidden', 'update-project-ownership-or-subscription-forbidden', 'new-project-owner-not-manager'],
  },
  [`PATCH ${P}`]: {
    does: 'Changes only the given fields of a project.',
    permission: '`project:project:update-details` to change its details; `project:project:update-owner` and `project:project:update-subscription` to change its owner or subscription.',
    errors: [...PROJECT, INPUT, 'subscription-not-active', 'update-project-forbidden', 'update-project-ownership-or-subscription-forbidden', 'new-project-owner-not-manager'],
  },
  [`DELETE ${P}`]: {
    does: 'Deletes a project: softly (it can be restored), or for good with `permanent=true` once it is deleted.',
    permission: '`project:project:delete`.',
    errors: [...ACCOUNT, 'invalid-project-urn', 'project-deleted', 'project-not-deleted', 'not-member-of-project', 'delete-project-forbidden', 'project-not-found'],
  },
  [`PUT ${P}/restore`]: {
    does: 'Restores a deleted project.',
    permission: '`project:project:delete`.',
    errors: [...ACCOUNT, 'invalid-project-urn', 'project-active', 'not-member-of-project', 'restore-project-forbidden', 'project-not-found'],
  },
  [`POST ${P}/cover`]: {
    does: 'Signs the upload of a project cover (png, jpg or jpeg): answers the URL to PUT the image to.',
    permission: '`project:project:update-details`.',
    errors: [...PROJECT, INPUT, 'update-project-forbidden'],
  },
  [`PUT ${P}/cover`]: {
    does: 'Registers the uploaded project cover (the object must exist with the signed size and MD5, and be an image); the previous cover is deleted.',
    permission: '`project:project:update-details`.',
    errors: [...PROJECT, INPUT, ...UPLOAD, 'cover-not-an-image', 'update-project-forbidden'],
  },

  // Files (src/core/files/; docs/files.md).
  [`POST ${W}/bulk-files`]: {
    does: 'Signs the uploads of many files into a work zone: answers a URL per file to PUT the bytes to (with Content-MD5). When every item carries its `blobName`, registers them instead (as PUT does).',
    permission: `${FILE_WRITE}.`,
    errors: [...PROJECT, ...WORKZONE, INPUT, ...UPLOAD, 'capacity-exceeded-scan', 'capacity-exceeded-geoimage', 'storage-quota-exceeded', 'create-file-forbidden'],
  },
  [`PUT ${W}/bulk-files`]: {
    does: 'Registers uploaded files in a work zone: each object must exist with its signed size and MD5; all or nothing, idempotent per blob.',
    permission: `${FILE_WRITE}.`,
    errors: [...PROJECT, ...WORKZONE, INPUT, ...UPLOAD, 'capacity-exceeded-scan', 'capacity-exceeded-geoimage', 'create-file-forbidden'],
  },
  [`GET ${P}/files`]: {
    does: 'The files of the project in the work zones where the caller holds `workzone:workzones:read`, optionally of some categories (`category=scan,model`).',
    permission: `${MEMBER}.`,
    errors: [...PROJECT, INPUT],
  },
  [`GET ${P}/files/{fileRef}`]: { does: 'One file.', permission: `${MEMBER} with \`workzone:workzones:read\` on the file's work zone.`, errors: [...PROJECT, 'invalid-file-urn', 'view-file-forbidden', 'file-not-found'] },
  [`PATCH ${P}/files/{fileRef}`]: {
    does: 'Renames a file.',
    permission: `${FILE_WRITE.replace('on the work zone', "on the file's work zone")}.`,
    errors: [...PROJECT, INPUT, 'invalid-file-urn', 'update-file-forbidden', 'file-not-found'],
  },
  [`DELETE ${P}/files/{fileRef}`]: {
    does: 'Deletes a file and its stored objects.',
    permission: `${FILE_WRITE.replace('on the work zone', "on the file's work zone")}.`,
    errors: [...PROJECT, 'invalid-file-urn', 'delete-file-forbidden', 'file-not-found'],
  },
  [`POST ${P}/files/bulk-transformation`]: {
    does: 'Moves, rotates or scales files (all or nothing); scaling only where the category allows it.',
    permission:
      'on each file\'s work zone: `workzone:reality-data:transform` (scans, geo images, gaussian splats), `workzone:cad-model:transform` (models), `workzone:video3d:write` (360 videos).',
    errors: [...PROJECT, INPUT, 'update-file-forbidden', 'file-not-found'],
  },
  [`GET ${P}/blobs/{blobName}`]: {
    does: 'Downloads a stored object of the project: 302 to a signed URL valid 3 hours.',
    permission: `a file or crop cover: ${MEMBER}, and ${FILE_READ}.`,
    errors: [...PROJECT, 'view-file-forbidden', 'view-crop-forbidden', 'blob-not-found'],
  },
  [`POST ${P}/blobs`]: {
    does: 'Signed download URLs (valid 3 hours) of many stored objects of the project.',
    permission: `for each object: a file or crop cover: ${MEMBER}, and ${FILE_READ}.`,
    errors: [...PROJECT, INPUT, 'view-file-forbidden', 'view-crop-forbidden', 'blob-not-found'],
  },

  // Webhooks: our extension, not in the vendor's API (docs/webhooks.md).
  [`POST ${A}/webhooks`]: {
    does:
      'Registers an endpoint that receives the account\'s events as Standard Webhooks deliveries (signed POSTs of `{type, timestamp, data}`). ' +
      'Answers 201 with the endpoint and its signing `secret` (`whsec_…`), which no other answer shows. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...ACCOUNT, INPUT, 'invalid-webhook-url', 'invalid-webhook-events', 'manage-webhooks-forbidden', 'webhook-limit-reached'],
  },
  [`GET ${A}/webhooks`]: { does: 'The account\'s webhook endpoints (without secrets). Not in the vendor\'s API.', permission: WEBHOOK_READ, errors: [...ACCOUNT, 'read-webhooks-forbidden'] },
  [`GET ${WH}`]: { does: 'A webhook endpoint (without its secret). Not in the vendor\'s API.', permission: WEBHOOK_READ, errors: [...WEBHOOK, 'read-webhooks-forbidden'] },
  [`PATCH ${WH}`]: {
    does: 'Changes the given fields of an endpoint; `enabled: true` also re-enables one the service disabled after a day of failures. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...WEBHOOK, INPUT, 'invalid-webhook-url', 'invalid-webhook-events', 'manage-webhooks-forbidden'],
  },
  [`DELETE ${WH}`]: { does: 'Deletes an endpoint and its deliveries. Not in the vendor\'s API.', permission: WEBHOOK_WRITE, errors: [...WEBHOOK, 'manage-webhooks-forbidden'] },
  [`POST ${WH}/rotate-secret`]: {
    does: 'Replaces the signing secret and answers the new one; for a day the deliveries carry a signature with the previous secret too. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...WEBHOOK, 'manage-webhooks-forbidden'],
  },
  [`GET ${WH}/deliveries`]: {
    does: 'The endpoint\'s deliveries, newest event first (`limit`, `state`): attempts, last status and error, next attempt. Not in the vendor\'s API.',
    permission: WEBHOOK_READ,
    errors: [...WEBHOOK, INPUT, 'read-webhooks-forbidden'],
  },
  [`POST ${WH}/deliveries/{deliveryId}/replay`]: {
    does: 'Sends a delivery again: pending, due now, a new day of attempts, the same `webhook-id`. Answers 202. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...WEBHOOK, 'manage-webhooks-forbidden', 'webhook-delivery-not-found'],
  },
};
