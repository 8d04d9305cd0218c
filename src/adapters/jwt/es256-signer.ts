// Access tokens: RFC 9068 JWTs signed ES256 with keys kept in the database, so every
// node verifies every token. Verification pins the algorithm, issuer and type.
import { SignJWT, jwtVerify, generateKeyPair, exportJWK, importJWK, type JWK, type CryptoKey } from 'jose';
import crypto from 'node:crypto';
import type { AccessTokenClaims, SigningKeyRotation, TokenSigner } from '../../core/ports/crypto.ts';
import type { Sql } from '../postgres/sql.ts';

const ALG = 'ES256';
const KEY_LOCK = 727_274_002;

interface KeyRow {
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
  retires_at: Date | null;
}

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  /** Null for the signing key; else when it stops verifying and leaves the JWKS. */
  retiresAt: Date | null;
}

async function load(row: KeyRow): Promise<LoadedKey> {
  return {
    kid: row.kid,
    privateKey: (await importJWK(row.private_jwk, ALG)) as CryptoKey,
    publicKey: (await importJWK(row.public_jwk, ALG)) as CryptoKey,
    publicJwk: row.public_jwk,
    retiresAt: row.retires_at === null ? null : new Date(row.retires_at),
  };
}

/** Generates a key pair and stores it as the signing key, in the caller's transaction (which holds KEY_LOCK). */
async function insertKey(tx: Sql): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = crypto.randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
  await tx.query(
    'INSERT INTO signing_keys (kid, alg, private_jwk, public_jwk, created_at) VALUES ($1, $2, $3, $4, clock_timestamp())',
    [kid, ALG, JSON.stringify(privateJwk), JSON.stringify(publicJwk)],
  );
  return kid;
}

/** Creates the first signing key if the database has none that signs (once per cluster). */
async function ensureKey(sql: Sql): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
    const rows = await tx.query('SELECT kid FROM signing_keys WHERE retires_at IS NULL LIMIT 1');
    if (!rows.length) await insertKey(tx);
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
    const rows = await sql.query<KeyRow>(
      'SELECT kid, private_jwk, public_jwk, retires_at FROM signing_keys ORDER BY created_at, kid',
    );
    const next = new Map<string, LoadedKey>();
    for (const row of rows) {
      const known = keys.get(row.kid);
      next.set(row.kid, known ? { ...known, retiresAt: row.retires_at === null ? null : new Date(row.retires_at) } : await load(row));
    }
    const signing = [...next.values()].filter((k) => k.retiresAt === null).at(-1);
    // Every rotation adds the next signing key in the transaction that retires the last one.
    if (!signing) throw new Error('no signing key in signing_keys');
    keys = next;
    current = signing;
  }
  await reload();

  const live = (k: LoadedKey, nowSeconds: number) => k.retiresAt === null || k.retiresAt.getTime() > nowSeconds * 1000;

  async function keyFor(kid: string | undefined, nowSeconds: number): Promise<CryptoKey> {
    if (!kid) throw new Error('no kid');
    let k = keys.get(kid);
    // A key added by another node: reload, at most once a second.
    if (!k && Date.now() - lastReload > 1000) {
      await reload();
      k = keys.get(kid);
    }
    if (!k) throw new Error('unknown kid');
    if (!live(k, nowSeconds)) throw new Error('retired kid');
    return k.publicKey;
  }

  return {
    async sign(c) {
      // The key loaded last: another node's rotation arrives through reload() (the event, or
      // the oauth module's task every SIGNING_KEY_RELOAD_SECONDS), never from here, which
      // runs inside the token transactions (a read here would need a second connection).
      const key = current;
      return new SignJWT({ client_id: c.clientId })
        .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'at+jwt' })
        .setIssuer(opts.issuer)
        .setAudience(opts.audience)
        .setSubject(c.sub)
        .setJti(c.jti)
        .setIssuedAt(c.iat)
        .setExpirationTime(c.exp)
        .sign(key.privateKey);
    },
    async verify(token, nowSeconds): Promise<AccessTokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, (header) => keyFor(header.kid, nowSeconds), {
          algorithms: [ALG],
          issuer: opts.issuer,
          audience: opts.audience,
          typ: 'at+jwt',
          currentDate: new Date(nowSeconds * 1000),
          clockTolerance: 0,
          requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
        const clientId = typeof payload.client_id === 'string' ? payload.client_id : null;
        return { sub: payload.sub, jti: payload.jti, iat: payload.iat!, exp: payload.exp!, clientId };
      } catch {
        return null;
      }
    },
    async jwks(nowSeconds) {
      return { keys: [...keys.values()].filter((k) => live(k, nowSeconds)).map((k) => ({ ...k.publicJwk })) };
    },
    async rotate({ now, retireAt }): Promise<SigningKeyRotation> {
      const result = await sql.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
        await tx.query('DELETE FROM signing_keys WHERE retires_at <= $1', [now]);
        const retiring = await tx.query<{ kid: string; retiresAt: Date }>(
          'UPDATE signing_keys SET retires_at = $1 WHERE retires_at IS NULL RETURNING kid, retires_at AS "retiresAt"',
          [retireAt],
        );
        const kid = await insertKey(tx);
        return { kid, retiring: retiring.map((r) => ({ kid: r.kid, retiresAt: new Date(r.retiresAt) })) };
      });
      await reload();
      return result;
    },
    reload,
  };
}
