// The crops module's public face (vendor "Crop"): crops of a project's work zones and their
// covers (docs/files.md).
export type { CropInput, CropView, Crops } from './core/crops.ts';
export type { CropFields, CropRecord, CropsRepo, CropsRepos } from './core/ports.ts';
