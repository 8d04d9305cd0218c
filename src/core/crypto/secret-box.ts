// Secrets sealed at rest (the kernel's, shared by the modules that keep a third party's
// secret: the sso module's IdP client secrets, the integrations module's tokens): AES-256-GCM
// under a random 32-byte key each module keeps as a setting (created once, first node wins:
// sso.sealing_key, integrations.sealing_key; snapshots leave them out,
// src/adapters/snapshots/database.ts). A sealed value is `v1.<iv>.<tag>.<ciphertext>`
// (base64url). It keeps the secret out of every answer, log line and export of the rows;
// docs/identity.md says what it does not protect against (the key is in the same database).
import crypto from 'node:crypto';
import type { Ids } from '../ports/ids.ts';

/** Seals and opens secrets (AES-256-GCM). */
export interface SecretBox {
  seal(plain: string): Promise<string>;
  /** The plain text of a sealed value; throws on anything this box did not seal. */
  open(sealed: string): Promise<string>;
}

const SEALED = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/;

/** Whether a stored value has the sealed form (a value stored before sealing began has not, as a rule). */
export const looksSealed = (value: string): boolean => SEALED.test(value);

/**
 * `createSecretBox`: `sealingKey(candidate)` answers the module's key (the candidate, a fresh
 * random one, unless a key is kept already), read once per process.
 */
export function createSecretBox(deps: { sealingKey: (candidate: string) => Promise<string>; ids: Ids }): SecretBox {
  let key: Promise<Buffer> | null = null;
  const keyOf = (): Promise<Buffer> =>
    (key ??= deps.sealingKey(deps.ids.secret(32)).then(
      (k) => Buffer.from(k, 'base64url'),
      (e: unknown) => {
        key = null; // retried by the next use
        throw e;
      },
    ));

  return {
    async seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', await keyOf(), iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    async open(sealed) {
      const [v, iv, tag, data] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('sealed secret: unknown format');
      const decipher = crypto.createDecipheriv('aes-256-gcm', await keyOf(), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
