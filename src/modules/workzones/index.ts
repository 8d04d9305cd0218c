// The workzones module's public face (vendor "Workzone"): the work-zone tree of each project,
// and a zone's copy (a job). What other modules read of it is its repository, in their own
// use cases (WorkzonesRepos: a new project's root zone, the zones that files, tags, crops,
// annotations, measurements and members resolve), and its job kind; its use cases (Workzones,
// WorkzoneCopy) reach the HTTP face through its contract (module.ts). This face exports only
// files that import nothing back: the work-zone core builds on projects and files (project
// scopes, a new project's rows, the files' copy), which import this face, and a re-export of
// its use cases here would close an import loop (npm run lint:cycles).
export type { WorkzoneRecord, WorkzonesRepo, WorkzonesRepos, WorkzoneWithStats } from './core/ports.ts';
export type { WorkzoneEventType } from './core/events.ts';
export { COPY_JOB } from './core/copy-job.ts';
