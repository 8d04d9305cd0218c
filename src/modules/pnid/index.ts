// The pnid module's public face (docs/pnid.md): P&ID elements added as tags of a 2d tag list.
export type { PnIdElements, PnIdPage, PnIdInstrument, PnIdPipe } from './core/pnid-elements.ts';
export { planPnIdTags, findPage, TAG_NAME_CHARS } from './core/pnid-elements.ts';
