// Access tokens: RFC 9068 JWTs signed ES256 with keys kept in the database, so every
// node verifies every token. Verification pins the algorithm, issuer and type.
import { SignJWT, jwtVerify, generateKeyPair, exportJWK, importJWK, type JWK, type CryptoKey } from 'jose';
import crypto from 'node:crypto';
import type { AccessTokenClaims, TokenSigner } from '../../core/ports/crypto.ts';
import type { Sql } from '../postgres/sql.ts';

const ALG = 'ES256';
const KEY_LOCK = 727_274_002;

interface KeyRow {
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
}

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

async function load(row: KeyRow): Promise<LoadedKey> {
  return {
    kid: row.kid,
    privateKey: (await importJWK(row.private_jwk, ALG)) as CryptoKey,
    publicKey: (await importJWK(row.public_jwk, ALG)) as CryptoKey,
    publicJwk: row.public_jwk,
  };
}

/** Creates the first signing key if the database has none (once per cluster). */
async function ensureKey(sql: Sql): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
    const rows = await tx.query('SELECT kid FROM signing_keys LIMIT 1');
    if (rows.length) return;
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = crypto.randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    await tx.query(
      'INSERT INTO signing_keys (kid, alg, private_jwk, public_jwk, created_at) VALUES ($1, $2, $3, $4, now())',
      [kid, ALG, JSON.stringify(privateJwk), JSON.stringify(publicJwk)],
    );
  });
}

export async function createEs256Signer(
  sql: Sql,
  opts: { issuer: string; audience: string },
): Promise<TokenSigner> {
  await ensureKey(sql);
  let keys = new Map<string, LoadedKey>();
  let current: LoadedKey;
  let lastReload = 0;

  async function reload(): Promise<void> {
    lastReload = Date.now();
    const rows = await sql.query<KeyRow>('SELECT kid, private_jwk, public_jwk FROM signing_keys ORDER BY created_at');
    const next = new Map<string, LoadedKey>();
    for (const row of rows) next.set(row.kid, keys.get(row.kid) ?? (await load(row)));
    keys = next;
    current = [...next.values()].at(-1)!;
  }
  await reload();

  async function keyFor(kid: string | undefined): Promise<CryptoKey> {
    if (!kid) throw new Error('no kid');
    let k = keys.get(kid);
    // A key added by another node: reload, at most once a second.
    if (!k && Date.now() - lastReload > 1000) {
      await reload();
      k = keys.get(kid);
    }
    if (!k) throw new Error('unknown kid');
    return k.publicKey;
  }

  return {
    sign: (c) =>
      new SignJWT({ client_id: 'scanbase' })
        .setProtectedHeader({ alg: ALG, kid: current.kid, typ: 'at+jwt' })
        .setIssuer(opts.issuer)
        .setAudience(opts.audience)
        .setSubject(c.sub)
        .setJti(c.jti)
        .setIssuedAt(c.iat)
        .setExpirationTime(c.exp)
        .sign(current.privateKey),
    async verify(token, nowSeconds): Promise<AccessTokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, (header) => keyFor(header.kid), {
          algorithms: [ALG],
          issuer: opts.issuer,
          audience: opts.audience,
          typ: 'at+jwt',
          currentDate: new Date(nowSeconds * 1000),
          clockTolerance: 0,
          requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
        return { sub: payload.sub, jti: payload.jti, iat: payload.iat!, exp: payload.exp! };
      } catch {
        return null;
      }
    },
    async jwks() {
      return { keys: [...keys.values()].map((k) => ({ ...k.publicJwk })) };
    },
  };
}
