// The activity module's use case, in a file that imports nothing: its public face names it, and
// the projects module, whose repository the recorder writes to (activity.ts), imports that face
// (a face re-exporting activity.ts would close an import loop: npm run lint:cycles).
export interface Activity {
  /** Undefined when today's date is already written; otherwise the write, which never rejects. */
  projectAccessed(projectId: string): Promise<void> | undefined;
  /** `nowMs`: the clock as the caller already read it for this request (read here otherwise). */
  userActive(userId: string, nowMs?: number): Promise<void> | undefined;
  /** Forgets what was written. */
  clear(): void;
}
