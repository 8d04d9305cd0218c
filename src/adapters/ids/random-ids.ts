import crypto from 'node:crypto';
import type { Ids } from '../../core/ports/ids.ts';

const API1_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export const randomIds: Ids = {
  uuid: () => crypto.randomUUID(),
  api1Id() {
    // 20 characters of 62 ≈ 119 bits: unguessable and never mistaken for a UUID.
    const bytes = crypto.randomBytes(20);
    let out = '';
    for (const b of bytes) out += API1_ALPHABET[b % 62];
    return out;
  },
  secret: (bytes = 32) => crypto.randomBytes(bytes).toString('base64url'),
};
