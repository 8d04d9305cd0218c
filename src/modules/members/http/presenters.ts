// API 2 presenters of project members (pure reshaping: URN ids in the deployment's namespace,
// the avatars' links).
import type { UserRecord } from '../../../core/ports/repositories.ts';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import type { MemberAccessView } from '../core/members.ts';

export function memberPresenters(core: KitCore) {
  const { urn, opt } = api2Kit(core);
  const member = (u: UserRecord) => ({
    id: urn('user', u.id), urn: urn('user', u.id), api1Id: u.api1Id, type: 'user' as const, firstName: u.firstName,
    lastName: u.lastName, email: u.email, company: u.company, title: u.title,
    avatar: `${core.config.publicUrl}/avatars/${u.id}.svg`, invitedBy: opt('user', u.invitedBy), invitedAt: u.invitedAt?.toISOString() ?? null,
  });
  const memberAccess = (m: MemberAccessView) => ({
    member: m.member.type === 'user'
      ? { type: 'user' as const, id: urn('user', m.member.id), email: m.member.email }
      : { type: 'group' as const, id: urn('group', m.member.id), name: m.member.name },
    roleId: urn('role', m.roleId),
    expirationDate: m.expirationDate?.toISOString() ?? null,
    workzoneIds: m.workzoneIds.map((w) => urn('workzone', w)),
  });
  return { member, memberAccess };
}
