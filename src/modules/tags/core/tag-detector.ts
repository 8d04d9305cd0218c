// The object detector behind `detect` and ai-detection (CONTRACT §8): given a tag list's
// detection request it answers the tags found. The default one finds nothing.
export interface DetectionRequest {
  tagListId: string;
  projectId: string;
  classes: string[];
  fileIds: string[];
}

/** A detected tag: TagData (geometry as the spec's "Tag geometry"); `nature` is set to AI. */
export type DetectedTag = Record<string, unknown>;

export interface TagDetector {
  detect(req: DetectionRequest): Promise<DetectedTag[]>;
}

export const noDetections: TagDetector = {
  async detect() {
    return [];
  },
};
