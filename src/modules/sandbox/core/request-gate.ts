// The node's request gate (docs/sandbox.md "Restore and requests in flight"): a snapshot
// restore or a reset replaces the whole state; while it runs, no request of this node may
// read half of the old state and half of the new. Every request passes the gate (a counter
// when nothing holds it); `exclusive` closes it to new requests (they wait, then run on the
// new state), waits for the requests in flight to finish (at most `drainMs`), runs, and
// opens it again. One exclusive run at a time: a second waits for the first.

/** The gate every request of the node passes, and the exclusive runs (restore, reset) close. */
export interface RequestGate {
  /**
   * Admits a request. Answers null when admitted at once (the usual case: nothing to await),
   * or a promise that resolves once an exclusive run ends. Either way the caller calls
   * `leave()` exactly once when its request is over.
   */
  enter(): Promise<void> | null;
  leave(): void;
  /** Runs `fn` with the gate closed: new requests wait; those in flight are waited for first. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Requests admitted and not yet over (tests, the journal). */
  inFlight(): number;
}

export function createRequestGate(opts: { drainMs: number }): RequestGate {
  let inFlight = 0;
  /** Resolves when the exclusive run in hand ends; null while the gate is open. */
  let closed: Promise<void> | null = null;
  let drained: (() => void) | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const gate: RequestGate = {
    enter() {
      if (closed === null) {
        inFlight++;
        return null;
      }
      const wait = closed;
      return wait.then(() => {
        // Another exclusive run may have closed the gate again meanwhile: wait for it too.
        const again = gate.enter();
        return again ?? undefined;
      });
    },
    leave() {
      inFlight--;
      if (inFlight === 0 && drained) drained();
    },
    exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const run = queue.then(async () => {
        let open!: () => void;
        closed = new Promise<void>((resolve) => (open = resolve));
        try {
          if (inFlight > 0) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, opts.drainMs);
              drained = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            drained = null;
          }
          return await fn();
        } finally {
          closed = null;
          open();
        }
      });
      queue = run.then(() => undefined, () => undefined);
      return run;
    },
    inFlight: () => inFlight,
  };
  return gate;
}
