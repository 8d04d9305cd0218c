// The seed document's shape (SEED_FILE, POST /_operator/seed) and the extension point each
// module's part of an account implements: a port of the kernel, so that the module
// descriptor's type (modules.ts) names it without importing the operator module.
import type { Repos } from './repositories.ts';

export interface SeedUser {
  id?: string;
  email: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  title?: string;
}

export interface SeedSubscription {
  id?: string;
  name: string;
  isTrial?: boolean;
  isVa?: boolean;
  isActive?: boolean;
  scanCapacity?: number;
  tagCapacity?: number;
  geoImageCapacity?: number;
  start?: string | null;
  end?: string | null;
  inviteAccountOwnerInNewProjects?: boolean;
}

export interface SeedAccount {
  id?: string;
  name: string;
  owner: string;
  administrators?: string[];
  projectManagers?: string[];
  projectListers?: string[];
  members?: string[];
  subscriptions?: SeedSubscription[];
  roles?: unknown[];
  groups?: unknown[];
}

export interface SeedDocument {
  users?: SeedUser[];
  accounts?: SeedAccount[];
}

/** Extension point: later modules (roles, groups, projects…) apply their part of an account. */
export type SeedAccountExtension = (
  repos: Repos,
  account: { id: string; seed: SeedAccount; userIdOf: (email: string) => Promise<string> },
) => Promise<Record<string, unknown>>;
