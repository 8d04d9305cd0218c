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
}

/** Signs and verifies access tokens (JWT ES256, keys kept in the database). */
export interface TokenSigner {
  sign(claims: { sub: string; jti: string; iat: number; exp: number }): Promise<string>;
  /** Verifies signature, algorithm, issuer and expiry against `nowSeconds`; null when invalid. */
  verify(token: string, nowSeconds: number): Promise<AccessTokenClaims | null>;
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
}
