// Promise helpers every layer may use.

/**
 * A promise whose failure is awaited, and handled, later (after other work has begun): it is
 * marked handled now, so Node does not report it as unhandled (and stop the process) in
 * between. Answers the same promise, whose failure still reaches whoever awaits it.
 */
export function handledLater<T>(promise: Promise<T>): Promise<T> {
  promise.then(undefined, ignoreUntilAwaited);
  return promise;
}

function ignoreUntilAwaited(): void {
  // The failure is observed where the promise is awaited (see handledLater).
}
