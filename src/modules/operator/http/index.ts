// The operator surface's guards, the one part of this module's http/ another module's routes
// use: the sandbox module's routes are under /_operator too, behind the same token.
export { requireOperator, routeNotFound, sandboxOnly } from './guards.ts';
