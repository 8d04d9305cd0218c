// Hashing ports: passwords with a memory-hard KDF, tokens/codes with SHA-256.
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export interface AccessTokenClaims {
  sub: string; // user URN
  jti: string;
  iat: number;
  exp: number;
  /** The client_id claim: the OAuth client the token was issued to; null when absent. */
  clientId: string | null;
}

/**
 * How soon every node signs with a key another node added: each node re-reads the keys
 * this often in the background (the oauth module's `signing-keys` task), and at once on the
 * `signing-keys` change. Signing itself never reads the database: it runs inside the token
 * transactions, where a read on another connection would wait for the one they hold.
 */
export const SIGNING_KEY_RELOAD_SECONDS = 60;

export interface SigningKeyRotation {
  /** The new signing key. */
  kid: string;
  /** The keys that stopped signing now, and when they leave the JWKS and stop verifying. */
  retiring: { kid: string; retiresAt: Date }[];
}

/** Signs and verifies access tokens (JWT ES256, keys kept in the database). */
export interface TokenSigner {
  /** Signs with the key loaded last: no I/O (it is called inside transactions). */
  sign(claims: { sub: string; jti: string; iat: number; exp: number; clientId: string }): Promise<string>;
  /**
   * Verifies signature, algorithm, issuer and expiry against `nowSeconds`, with a key that
   * has not retired by then; null when invalid.
   */
  verify(token: string, nowSeconds: number): Promise<AccessTokenClaims | null>;
  /** The public keys not retired at `nowSeconds`: the signing key and the retiring ones. */
  jwks(nowSeconds: number): Promise<{ keys: Record<string, unknown>[] }>;
  /**
   * Adds a new key and signs with it from now on; every key signing until now retires at
   * `retireAt` (kept in the JWKS and verifying until then); keys retired by `now` are deleted.
   * Serialised across nodes.
   */
  rotate(p: { now: Date; retireAt: Date }): Promise<SigningKeyRotation>;
  /** Re-reads the keys (another node rotated). */
  reload(): Promise<void>;
}
