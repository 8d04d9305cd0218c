// The pnid module's contract (src/modules/contract.ts; docs/pnid.md): P&ID elements added as
// tags of a 2d tag list, through the tags module's public face. Listed after `tags`.
import { defineModule } from '../contract.ts';
import type { TagLists } from '../tags/index.ts';
import { createPnIdElements, type PnIdElements } from './core/pnid-elements.ts';
import { pnidRoutes } from './http/api2.ts';
import { PNID_OPERATIONS } from './http/operations.ts';

export const pnidModule = defineModule<{ tagLists: TagLists }, { pnIdElements: PnIdElements }>({
  name: 'pnid',
  feature: {
    name: 'pnid',
    create: ({ tagLists }) => ({ offers: { pnIdElements: createPnIdElements({ tagLists }) } }),
  },
  routes: { api2: pnidRoutes },
  operations: { api2: PNID_OPERATIONS },
});
