// The share-links module's public face (vendor "Share Link"): what other modules and the
// wiring may import from it. docs/share-links.md.
export type { ShareLinkInput, ShareLinkView, ShareLinks } from './core/sharelinks.ts';
export type { OpenedSession, ShareLinkFacts, SharedScope, SharedViews } from './core/shared-view.ts';
export type { ShareLinkRecord, ShareLinksRepo, ShareLinksRepos, ShareOptions } from './core/ports.ts';
export { SHARE_LINK_LIMITS, checkPassword, sharedZoneIds } from './core/rules.ts';
