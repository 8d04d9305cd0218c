// The part of fs-native-extensions (Holepunch; prebuilt addon shipped in the package) that
// src/adapters/postgres/data-dir-lock.ts uses. On Linux tryLock takes an open file
// description lock (fcntl F_OFD_SETLK), on macOS flock, on Windows LockFileEx.
declare module 'fs-native-extensions' {
  /** An exclusive (or `shared`) lock on the file; false when another open file holds it. */
  export function tryLock(fd: number, opts?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
