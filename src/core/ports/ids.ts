// Ids port: UUIDs, API 1 ids and random secrets, injected so tests can fix them.
export interface Ids {
  uuid(): string;
  /** A URL-safe random secret of `bytes` random bytes (base64url). */
  secret(bytes?: number): string;
}
