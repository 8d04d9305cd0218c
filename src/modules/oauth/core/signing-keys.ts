// Signing-key rotation (docs/tokens.md, "Signing keys"): a new ES256 key joins the JWKS and
// signs every access token from now on; the keys signing until now keep verifying, and stay
// in the JWKS, for the longest access-token lifetime (3 hours) plus the time every node
// takes to switch (SIGNING_KEY_RELOAD_SECONDS), so no token issued before the switch, on
// any node, stops working before it expires. Called by the operator API
// (POST /_operator/signing-keys/rotate); an administration command will call the same.
import { SIGNING_KEY_RELOAD_SECONDS, type TokenSigner } from '../../../core/ports/crypto.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import { sliceOf, storeUse, type SliceOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import { errorFields, type Logger } from '../../../core/ports/telemetry.ts';
import { ACCESS_TOKEN_SECONDS } from './token-service.ts';
import { cacheScope, onInvalidation } from '../../../core/events/invalidation.ts';

export interface RotationView {
  kid: string;
  retiring: { kid: string; retiresAt: string }[];
}

/** Signing-key rotation and the JWKS. */
export interface SigningKeys {
  /** A new signing key from now on; the keys signing until now keep verifying until every token they signed has expired. */
  rotate(): Promise<RotationView>;
  /** The public keys that verify tokens now (the signing key and the retiring ones). */
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SIGNING_KEYS_STORE = storeUse({ reads: [], writes: ['events'] });

export function createSigningKeys(deps: { store: SliceOf<typeof SIGNING_KEYS_STORE> & StoreEvents; clock: Clock; signer: TokenSigner; logger: Logger }): SigningKeys {
  const { clock, signer, logger } = deps;
  const store = sliceOf(deps.store, SIGNING_KEYS_STORE);
  onInvalidation(deps.store, (scope) => {
    if (scope === cacheScope.signingKeys) {
      // The next sign re-reads within SIGNING_KEY_RELOAD_SECONDS anyway; say why this one failed.
      signer.reload().catch((err: unknown) => logger.warn(errorFields(err), 'signing keys reload failed'));
    }
  });
  return {
    async rotate(): Promise<RotationView> {
      const now = clock.now();
      const retireAt = new Date(now.getTime() + (ACCESS_TOKEN_SECONDS + SIGNING_KEY_RELOAD_SECONDS) * 1000);
      const r = await signer.rotate({ now, retireAt });
      // Every other node switches now (this one already has: it rotated).
      await store.transaction((repos) => repos.events.publish({ type: 'signing-keys.rotated', accountId: null, subject: 'signing-keys', data: {} }, now));
      return { kid: r.kid, retiring: r.retiring.map((k) => ({ kid: k.kid, retiresAt: k.retiresAt.toISOString() })) };
    },
    /** The public keys that verify tokens now (the signing key and the retiring ones). */
    jwks: () => signer.jwks(Math.floor(clock.nowMs() / 1000)),
  };
}
