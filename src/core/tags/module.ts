// The tags module's descriptor (src/core/modules.ts): tag lists of both API generations,
// and AI detection (a job it enqueues and handles, over the TagDetector port). The whole
// lists kept as text per node are written in each API's one tag shape (`tagJson`, given
// by src/http/api*/tag-json.ts through the composition).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { TagDetector } from '../ports/tag-detector.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { JobRunner } from '../jobs/index.ts';
import type { UsageRecorder } from '../ports/usage.ts';
import { createTagLists, DETECT_JOB, type TagLists } from './tag-lists.ts';
import { createDetectionJob } from './detection.ts';
import { TagTexts } from './tag-texts.ts';
import type { TagJsonDescription } from './tag-json.ts';

export interface TagsNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  jobRunner: JobRunner;
  /** The AI detector behind tag-list detection. */
  detector: TagDetector;
  /** Each API generation's tag shape, for the whole-list texts. */
  tagJson: readonly TagJsonDescription[];
  /** The usage module's recorder: whole-list reads are tallied as tag downloads. */
  usageRecorder: UsageRecorder;
}

export const tagsModule: FeatureModule<TagsNeeds, { tagLists: TagLists }> = {
  name: 'tags',
  enqueues: [DETECT_JOB],
  create: ({ store, clock, ids, projectAccess, jobRunner, detector, tagJson, usageRecorder }) => {
    const tagTexts = new TagTexts(tagJson);
    return {
      offers: { tagLists: createTagLists({ store, clock, ids, access: projectAccess, jobs: jobRunner, tagTexts, usage: usageRecorder }) },
      jobs: { [DETECT_JOB]: createDetectionJob({ store, clock, ids, detector, tagTexts }) },
    };
  },
};
