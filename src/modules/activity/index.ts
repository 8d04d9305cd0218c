// The activity module's public face: the last-access dates of projects and users that API 1's
// reports show; the projects module marks a project accessed through it.
export type { Activity } from './core/activity-use.ts';
