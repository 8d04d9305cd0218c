// The annotations module's descriptor (src/core/modules.ts): annotations of a project's work
// zones, their assignees' mails and their comments (docs/annotations.md).
import type { FeatureModule } from '../../core/modules.ts';
import type { Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ProjectAccess } from '../../core/projects/index.ts';
import type { SendMail } from '../../core/mail/index.ts';
import { createAnnotations, type Annotations } from './core/annotations.ts';

export interface AnnotationsNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  sendMail: SendMail;
  config: { publicUrl: string };
}

export const annotationsModule: FeatureModule<AnnotationsNeeds, { annotations: Annotations }> = {
  name: 'annotations',
  create: ({ store, clock, ids, projectAccess, sendMail, config }) => ({
    offers: { annotations: createAnnotations({ store, clock, ids, access: projectAccess, sendMail, publicUrl: config.publicUrl }) },
  }),
};
