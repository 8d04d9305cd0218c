// The crops module: crops of a project's work zones and their covers.
// Offers: Crops. Needs: project access, the files module (covers).
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createCrops } from './crops.ts';
export type { CropInput, CropView, Crops } from './crops.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { cropsModule } from './module.ts';
