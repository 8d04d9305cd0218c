// Passwords: argon2id (memory-hard), parameters per OWASP's minimum recommendation.
import { hash, verify, Algorithm } from '@node-rs/argon2';
import type { PasswordHasher } from '../../core/ports/crypto.ts';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const argon2Hasher: PasswordHasher = {
  hash: (password) => hash(password, OPTIONS),
  async verify(stored, password) {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  },
};
