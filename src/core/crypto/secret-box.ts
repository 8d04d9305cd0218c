// Sealing of the IdPs' client secrets: AES-256-GCM under the deployment's SSO key (a random
// 32-byte key created once, first node wins, kept as the setting sso.sealing_key, which
// snapshots leave out). A sealed value is
// `v1.<iv>.<tag>.<ciphertext>` (base64url). It keeps the secret out of every answer, log line
// and export of the sso_providers rows; docs/identity.md says what it does not protect against.
import crypto from 'node:crypto';
import type { Ids } from '../../../core/ports/ids.ts';
import type { SecretBox } from './ports.ts';

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
