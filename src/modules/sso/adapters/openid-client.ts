// The OIDC relying party over openid-client (v6, panva): discovery of the IdP's metadata,
// the authorization URL (code + PKCE S256 + state + nonce) and the code grant with every check
// of the ID token, its signature included (enableNonRepudiationChecks: the JWS is verified
// against the IdP's JWKS, not only trusted because it came over TLS). Each HTTP request to the
// IdP is bounded by `timeoutSeconds`, so an IdP that is down gives a clear page, never a hang.
import * as oidc from 'openid-client';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import { IdpError, type IdpClient, type OidcRelyingParty } from '../core/ports.ts';

/** A discovered configuration is kept this long (the IdP's keys are fetched again by openid-client as it needs). */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;
/** Identity providers whose discovery is kept at once (one per provider configured and signed in through). */
const DISCOVERY_ENTRIES = 1000;

const UNREACHABLE_CODES = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_PARSE_ERROR']);

/** A failure of openid-client as the core knows it: the IdP unreachable (down, slow, answering nonsense) or its answer refused. */
function idpErrorOf(e: unknown, stage: 'discovery' | 'grant'): IdpError {
  if (e instanceof IdpError) return e;
  if (e instanceof oidc.AuthorizationResponseError) {
    return new IdpError('refused', `the identity provider reported ${e.error}${e.error_description ? `: ${e.error_description}` : ''}`);
  }
  if (e instanceof oidc.ResponseBodyError) {
    return new IdpError('refused', `the token endpoint answered ${e.error}${e.error_description ? `: ${e.error_description}` : ''}`);
  }
  const code = e instanceof oidc.ClientError ? e.code : undefined;
  const network = e instanceof TypeError || (code !== undefined && UNREACHABLE_CODES.has(code));
  const message = e instanceof Error ? e.message : String(e);
  if (network || stage === 'discovery') {
    const why = code === 'OAUTH_TIMEOUT' ? 'no answer in time' : message;
    return new IdpError('unreachable', stage === 'discovery' ? `discovery failed (${why})` : why);
  }
  // openid-client's messages are generic ("unexpected JWT claim value encountered"); its cause names the check.
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : null;
  return new IdpError('refused', `${cause && cause !== message ? `${message}: ${cause}` : message}${code ? ` (${code})` : ''}`);
}

export function createOpenIdRelyingParty(opts: { timeoutSeconds: number; now?: () => number; caches?: CacheRegistry }): OidcRelyingParty {
  // The discoveries under way or done, by provider and client (GET /metrics: `sso-discovery`).
  const cache = (opts.caches ?? new CacheRegistry()).lru<Promise<oidc.Configuration>>({
    name: 'sso-discovery', maxWeight: DISCOVERY_ENTRIES, ttlMs: DISCOVERY_TTL_MS, nowMs: opts.now ?? Date.now,
  });

  function configurationOf(c: IdpClient): Promise<oidc.Configuration> {
    const key = `${c.issuer}|${c.clientId}|${c.clientSecret ? sha256Hex(c.clientSecret) : ''}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const config = (async () => {
      const execute: ((config: oidc.Configuration) => void)[] = [oidc.enableNonRepudiationChecks];
      // checkIssuer allows http for loopback hosts only.
      if (c.issuer.startsWith('http:')) execute.push(oidc.allowInsecureRequests);
      try {
        return await oidc.discovery(
          new URL(c.issuer), c.clientId, { redirect_uris: [c.redirectUri] },
          c.clientSecret ? oidc.ClientSecretBasic(c.clientSecret) : oidc.None(),
          { execute, timeout: opts.timeoutSeconds },
        );
      } catch (e) {
        throw idpErrorOf(e, 'discovery');
      }
    })();
    cache.set(key, config);
    // A failed discovery is not kept: the next sign-in tries again (the caller gets the failure
    // from the promise it holds; this branch only forgets it).
    config.catch(() => {
      if (cache.peek(key) === config) cache.delete(key);
    });
    return config;
  }

  return {
    async authorizationUrl(c, p) {
      const config = await configurationOf(c);
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: c.redirectUri,
        response_type: 'code',
        scope: c.scopes.join(' '),
        state: p.state,
        nonce: p.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(p.codeVerifier),
        code_challenge_method: 'S256',
        login_hint: p.loginHint,
      });
    },

    async redeem(c, callbackUrl, p) {
      const config = await configurationOf(c);
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: p.codeVerifier,
          expectedState: p.state,
          expectedNonce: p.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new IdpError('refused', 'the token endpoint sent no ID token');
        return { ...claims };
      } catch (e) {
        throw idpErrorOf(e, 'grant');
      }
    },
  };
}
