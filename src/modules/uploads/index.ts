// The uploads module's public face: what other modules and the wiring may import from it.
export type { HeldParts, MultipartUploads, MultipartView, PartUrls, StartInput } from './core/multipart-uploads.ts';
export type { MultipartSweep, MultipartSweeper } from './core/sweeper.ts';
