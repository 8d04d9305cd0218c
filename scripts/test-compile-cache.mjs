// Loaded (--import) by every process of a `npm test` run: Node keeps the compiled code of the
// modules a process loads on disk (its compile cache, which src/main.ts turns on for the
// service too), so the run's few hundred test-file processes do not each parse and compile
// the service, its dependencies and the test support again. The files run on Node's own type
// stripping (tsconfig.json erasableSyntaxOnly), no transpiler in between.
import module from 'node:module';

module.enableCompileCache?.();
