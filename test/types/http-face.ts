// A type test (checked by tsc in `npm run lint`, never run): src/http's face of the composed
// service (src/services.ts Services) has no store, signer, object store or id generator, so a route
// file that reaches one fails to compile. Each @ts-expect-error line fails the lint as soon as
// the line below it compiles, i.e. as soon as the face exposes that member again; a
// destructuring is refused the same way (the lint's syntactic selector never saw it).
import type { Services } from '../../src/services.ts';
import type { ApiRoutes } from '../../src/http/route-modules.ts';

export function reachesOnlyUseCases(core: Services): void {
  // @ts-expect-error the store is not part of src/http's face
  void core.store;
  // @ts-expect-error no destructuring reaches it either
  const { store } = core;
  // @ts-expect-error nor the token signer
  void core.signer;
  // @ts-expect-error nor the object store
  void core.objectStore;
  // @ts-expect-error nor the id generator
  void core.ids;
  void store;
  void core.projects; // the use cases are
}

/** A route file typed by the face: reaching the store inside it is refused. */
export const routeFile: ApiRoutes = (_app, core) => {
  // @ts-expect-error a route file's core has no store
  void core.store.repos;
};
