// The tags module (docs/tags.md): tag lists of both API generations, tag moves, AI
// detection (a job over the TagDetector port), whole tag lists kept as text per node.
// Offers: TagLists, the detection job handler, TagTexts. Needs: project access, the job
// runner, the store, the clock, ids.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { capacityExceededTag, createTagLists, DETECT_JOB, tagListPending } from './tag-lists.ts';
export type { ChangeResult, DetectInput, TagChanges, TagListInput, TagLists, TagsView } from './tag-lists.ts';
export { createDetectionJob } from './detection.ts';
export { TagTexts } from './tag-texts.ts';
export type { TagData } from './tag-data.ts';
export { AI_DETECTION_CLASSES } from './ai-detection-classes.ts';
export { tagShapeOf, tagWriterOf } from './tag-json.ts';
export type { TagJsonDescription } from './tag-json.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { tagsModule } from './module.ts';
