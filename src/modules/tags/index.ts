// The tags module (docs/tags.md): tag lists of both API generations, tag moves, AI
// detection (a job over the TagDetector port), whole tag lists kept as text per node.
// Offers: TagLists. Needs: project access, the job runner, the usage recorder, the detector,
// the store, the clock, ids. Other modules, src/http and the wiring import it through this
// file (and the module list through module.ts) only (eslint.config.js).
export { capacityExceededTag, createTagLists, DETECT_JOB, tagListPending } from './core/tag-lists.ts';
export type { ChangeResult, DetectInput, TagChanges, TagListInput, TagLists, TagsView } from './core/tag-lists.ts';
export { createDetectionJob } from './core/detection.ts';
export { TagTexts } from './core/tag-texts.ts';
export type { TagData } from './core/tag-data.ts';
export { AI_DETECTION_CLASSES } from './core/ai-detection-classes.ts';
export { tagShapeOf, tagWriterOf } from './core/tag-json.ts';
export type { TagJsonDescription } from './core/tag-json.ts';
export type { TagListRecord, TagRow, TagsRepo, TagsRepos } from './core/ports.ts';
export { noDetections } from './core/tag-detector.ts';
export type { DetectedTag, DetectionRequest, TagDetector } from './core/tag-detector.ts';
export { tagListChanged, type TagEventType } from './core/events.ts';
