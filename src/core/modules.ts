// The feature module's descriptor (docs/architecture.md "Module descriptors"): what a module
// NEEDS (named adapters, settings and other modules' use cases, as one typed object) and
// what it OFFERS (its use cases, job handlers by kind, periodic tasks, seed extensions).
// src/compose.ts lists adapters, then descriptors in order; a Composition builds each
// module from what the ones before it offered, so a need nothing supplies fails tsc at the
// line that lists the module. No container, no look-up by name at run time: the names are
// property names of a typed object.
import type { PeriodicTask } from './ports/background.ts';
import type { JobHandler } from './ports/job-handler.ts';
import type { SeedAccountExtension } from './ports/seed.ts';

/** What building a module gives the node. */
export interface ModuleParts<Offers> {
  /** Its use cases, under the names other modules and src/http know them by. */
  offers: Offers;
  /** Its job handlers by job kind; the node's job runner runs each kind with its one handler. */
  jobs?: Readonly<Record<string, JobHandler>>;
  /** Its periodic tasks on this node (src/background.ts runs them once every module is built). */
  tasks?: readonly PeriodicTask[];
  /** What it adds to each account of a seed document (the operator's seeder applies them in module order). */
  seedExtensions?: readonly SeedAccountExtension[];
  /** Before the node serves, once every module is built (modules in order): load shared state, start work. */
  start?(): Promise<void>;
  /** At close, after the periodic tasks stopped (modules in reverse order): finish the work in hand. */
  stop?(): Promise<void>;
}

/** A feature module: `create` is a property (not a method) so that tsc checks its needs contravariantly. */
export interface FeatureModule<Needs, Offers> {
  /** The module's name (its folder under src/core), in errors and docs. */
  readonly name: string;
  /** The job kinds its use cases enqueue; each must have exactly one handler among the modules. */
  readonly enqueues?: readonly string[];
  readonly create: (needs: Needs) => ModuleParts<Offers>;
}

/**
 * What the composition itself supplies to modules: the job handlers and seed extensions of
 * every module, complete once `seal()` ran (the job runner reads a handler when it claims a
 * job, the seeder its extensions when it applies a seed; neither happens before `start`).
 */
export interface Contributions {
  jobHandlers: Readonly<Record<string, JobHandler>>;
  seedExtensions: readonly SeedAccountExtension[];
}

/** A built node: every offer merged, the tasks to schedule, the start and stop of every module. */
export interface Sealed<C> {
  use: C;
  tasks: readonly PeriodicTask[];
  /** The modules built, in order, with what they declared (tests and docs check them). */
  modules: readonly { name: string; enqueues: readonly string[]; jobKinds: readonly string[]; tasks: readonly string[]; seedExtensions: number; offers: readonly string[] }[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface Built {
  module: FeatureModule<never, unknown>;
  parts: ModuleParts<object>;
}

/** Builds modules in order, each from the adapters and the offers of the modules listed before it. */
export class Composition<C extends object> {
  private readonly ctx: C;
  private readonly built: readonly Built[];
  private readonly contributions: { jobHandlers: Record<string, JobHandler>; seedExtensions: SeedAccountExtension[] };

  private constructor(ctx: C, built: readonly Built[], contributions: Composition<C>['contributions']) {
    this.ctx = ctx;
    this.built = built;
    this.contributions = contributions;
  }

  /** Starts from the adapters and settings (and the composition's own contributions). */
  static of<A extends object>(adapters: A): Composition<A & Contributions> {
    const contributions = { jobHandlers: {} as Record<string, JobHandler>, seedExtensions: [] as SeedAccountExtension[] };
    return new Composition<A & Contributions>({ ...adapters, ...contributions }, [], contributions);
  }

  /** Builds `module` from what is there so far; its offers join the context under their names. */
  add<O extends object>(module: FeatureModule<C, O>): Composition<C & O> {
    const parts = module.create(this.ctx);
    for (const name of Object.keys(parts.offers)) {
      if (name in this.ctx) throw new Error(`module ${module.name} offers ${name}, which is already supplied`);
    }
    return new Composition<C & O>(
      { ...this.ctx, ...parts.offers } as C & O,
      [...this.built, { module: module as FeatureModule<never, unknown>, parts }],
      this.contributions,
    );
  }

  /**
   * Collects every module's job handlers and seed extensions, and checks the job kinds: no
   * kind handled twice, every enqueued kind handled. Throws naming the module at fault.
   */
  seal(): Sealed<C> {
    const { jobHandlers, seedExtensions } = this.contributions;
    const owner: Record<string, string> = {};
    for (const { module, parts } of this.built) {
      for (const [kind, handler] of Object.entries(parts.jobs ?? {})) {
        if (owner[kind]) throw new Error(`job kind ${kind} is handled by both ${owner[kind]} and ${module.name}`);
        owner[kind] = module.name;
        jobHandlers[kind] = handler;
      }
      seedExtensions.push(...(parts.seedExtensions ?? []));
    }
    for (const { module } of this.built) {
      for (const kind of module.enqueues ?? []) {
        if (!owner[kind]) throw new Error(`module ${module.name} enqueues job kind ${kind}, which no module handles`);
      }
    }
    const built = this.built;
    return {
      use: this.ctx,
      tasks: built.flatMap(({ parts }) => parts.tasks ?? []),
      modules: built.map(({ module, parts }) => ({
        name: module.name,
        enqueues: module.enqueues ?? [],
        jobKinds: Object.keys(parts.jobs ?? {}),
        tasks: (parts.tasks ?? []).map((t) => t.name),
        seedExtensions: parts.seedExtensions?.length ?? 0,
        offers: Object.keys(parts.offers),
      })),
      async start() {
        for (const { parts } of built) await parts.start?.();
      },
      async stop() {
        for (const { parts } of [...built].reverse()) await parts.stop?.();
      },
    };
  }
}
