// The annotations module's contract (src/modules/contract.ts): annotations of a project's work
// zones, their assignees' mails and their comments (docs/annotations.md).
import { defineModule } from '../contract.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { SendMail, MailRepos } from '../mail/index.ts';
import type { MembersRepos } from '../members/index.ts';
import { createAnnotations, type Annotations } from './core/annotations.ts';
import type { AnnotationsRepos } from './core/ports.ts';
import { ANNOTATION_ERROR_CODES } from './core/errors.ts';
import type { AnnotationEvent } from './core/events.ts';
import { annotationsRepo } from './postgres/annotations-repo.ts';
import { annotationRoutes } from './http/api2.ts';
import { ANNOTATION_OPERATIONS } from './http/operations.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';

export interface AnnotationsNeeds {
  /** The members module's repository too: an assignee's grants in the project. */
  store: Store<Repos & WorkzonesRepos & MembersRepos & AnnotationsRepos & MailRepos>;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  sendMail: SendMail;
  config: { publicUrl: string };
}

/** No cache holds annotations (each read goes to the database): their events make nothing stale. */
const { nothing } = invalidationRules;

export const annotationsModule = defineModule<AnnotationsNeeds, { annotations: Annotations }, AnnotationsRepos, AnnotationEvent, keyof typeof ANNOTATION_ERROR_CODES>({
  name: 'annotations',
  feature: {
    name: 'annotations',
    create: ({ store, clock, ids, projectAccess, sendMail, config }) => ({
      offers: { annotations: createAnnotations({ store, clock, ids, access: projectAccess, sendMail, publicUrl: config.publicUrl }) },
    }),
  },
  repositories: { annotations: annotationsRepo },
  routes: { api2: annotationRoutes },
  operations: { api2: ANNOTATION_OPERATIONS },
  invalidation: {
    'annotation.created': nothing,
    'annotation.updated': nothing,
    'annotation.deleted': nothing,
    'annotation.assigned': nothing,
    'annotation.commented': nothing,
  },
  errorCodes: ANNOTATION_ERROR_CODES,
});
