// API 2 presenters: pure reshaping of core views into the API 2 shapes (URN ids).
import { formatUrn, type UrnType } from '../../core/ids/urn.ts';
import type { AccountUserView, MyInvitation } from '../../core/users/index.ts';

export const DEFAULT_COLOR = '#6b7785';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export interface Api2Context {
  ns: string;
  publicUrl: string;
  region: { id: string; name: string; provider: 'azure' | 's3' | 'minio' };
}

export function presenters(ctx: Api2Context) {
  const urn = (type: UrnType, id: string) => formatUrn(ctx.ns, type, id);
  const userUrn = (id: string | null) => (id ? urn('user', id) : null);

  return {
    urn,
    user: (v: AccountUserView) => ({
      id: urn('user', v.user.id),
      urn: urn('user', v.user.id),
      api1Id: v.user.api1Id,
      type: 'user' as const,
      firstName: v.user.firstName,
      lastName: v.user.lastName,
      email: v.user.email,
      company: v.user.company,
      title: v.user.title,
      avatar: `${ctx.publicUrl}/avatars/${v.user.id}.svg`,
      invitedBy: userUrn(v.invitedBy),
      invitedAt: iso(v.invitedAt),
      ...(v.accountRoles ? { accountRoles: v.accountRoles } : {}),
      ...(v.pending ? { pending: true as const } : {}),
    }),
    invitation: (i: MyInvitation) => ({
      accountId: urn('account', i.accountId),
      accountName: i.accountName,
      roles: i.roles,
      invitedBy: i.invitedBy,
      invitedAt: i.invitedAt.toISOString(),
    }),
  };
}

/** The storage region an account reports, from STORAGE_URL (local disk reports as minio: self-hosted). */
export function regionOf(storageUrl: string | undefined): Api2Context['region'] {
  if (storageUrl?.startsWith('azure://')) return { id: 'default', name: 'Azure Blob storage', provider: 'azure' };
  if (storageUrl?.startsWith('s3://')) return { id: 'default', name: 'S3 storage', provider: 's3' };
  return { id: 'default', name: 'Local storage', provider: 'minio' };
}
