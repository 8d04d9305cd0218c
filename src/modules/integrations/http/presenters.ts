// API 2 presenters of integrations (pure reshaping: URNs in the deployment's namespace; never a token).
import type { Static } from 'typebox';
import type { UrnType } from '../../../core/ids/urn.ts';
import type { AccountKonektView, AutodeskConnectionRecord, CreatedLinks, ProjectAutodeskRecord, ProjectIntegrationView, ProjectIntegrationsView, ProjectKonektRecord } from '../index.ts';
import type * as I from './schemas.ts';

export function integrationPresenters(urn: (type: UrnType, id: string) => string) {
  const userUrn = (id: string | null) => (id ? urn('user', id) : '');
  const stamps = (r: { createdAt: Date; createdBy: string | null; updatedAt: Date; updatedBy: string | null }) => ({
    createdAt: r.createdAt.toISOString(), createdBy: userUrn(r.createdBy), updatedAt: r.updatedAt.toISOString(), updatedBy: userUrn(r.updatedBy),
  });

  const accountKonekt = (v: AccountKonektView): Static<typeof I.AccountKonekt> => {
    const r = v.integration;
    return {
      id: urn('newforma-konekt-hub', r.id),
      konektId: r.konektId,
      beta: r.beta,
      modificationInfo: { ...stamps(r), isDeleted: false },
      link: v.link,
      options: { allowCreateNewUsersOnHub: r.allowCreateNewUsersOnHub, syncStrategy: r.syncStrategy },
      name: r.name,
      connected: r.token !== null,
      konektProjects: r.konektProjects,
      linkedProjects: v.linkedProjects.map((p) => ({
        id: urn('project', p.projectId), konektId: p.konektProjectId, options: { allowInviteUsers: p.allowInviteUsers, syncStrategy: p.syncStrategy },
      })),
    };
  };

  const projectKonekt = (v: ProjectIntegrationView<ProjectKonektRecord>): Static<typeof I.ProjectKonekt> => ({
    projectId: urn('project', v.integration.projectId),
    hubId: v.integration.hubId,
    konektId: v.integration.konektProjectId,
    options: { allowInviteUsers: v.integration.allowInviteUsers, syncStrategy: v.integration.syncStrategy },
    link: v.link,
    ...stamps(v.integration),
  });

  const projectAutodesk = (v: ProjectIntegrationView<ProjectAutodeskRecord>): Static<typeof I.ProjectAutodesk> => ({
    projectId: urn('project', v.integration.projectId),
    autodeskHubId: v.integration.autodeskHubId,
    autodeskProjectId: v.integration.autodeskProjectId,
    link: v.link,
    ...stamps(v.integration),
  });

  return {
    accountKonekt,
    accountIntegrations: (v: { konekt: AccountKonektView[] }): Static<typeof I.AccountIntegrations> => ({ konekt: v.konekt.map(accountKonekt) }),
    projectKonekt,
    projectAutodesk,
    projectIntegrations: (v: ProjectIntegrationsView): Static<typeof I.ProjectIntegrations> => ({
      ...(v.konekt ? { konekt: projectKonekt(v.konekt) } : {}),
      ...(v.autodesk ? { autodesk: projectAutodesk(v.autodesk) } : {}),
    }),
    autodeskConnection: (c: AutodeskConnectionRecord): Static<typeof I.AutodeskConnection> => ({
      email: c.email, userName: c.userName, firstName: c.firstName, lastName: c.lastName, hubs: c.hubs,
    }),
    links: (created: CreatedLinks): Static<typeof I.LinksCreated> => ({
      created: Object.fromEntries([...created].map(([id, types]) => [urn('annotation', id), types])),
    }),
  };
}
