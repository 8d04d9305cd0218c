// The repositories' reference type: a row by its UUID or its API 1 id, every repository's
// (the projects' port: src/modules/projects/core/ports.ts; work zones: the workzones module,
// src/modules/workzones/core/ports.ts; materialised membership: the members module,
// src/modules/members/core/ports.ts).

export type Ref = { uuid: string } | { api1Id: string };
