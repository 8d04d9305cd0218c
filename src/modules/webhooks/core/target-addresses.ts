// Where a webhook may be sent (docs/webhooks.md "Targets"; docs/security.md): only to public
// unicast addresses, so that an endpoint's URL cannot make the service reach its own host,
// the cloud metadata address or the private network behind it (SSRF), and only on ports 80
// and 443 and those WEBHOOKS_TARGET_PORTS adds (no probing of other services' ports). The sender checks the
// address it resolved, right before connecting to exactly that address (DNS rebinding);
// registration refuses what it can tell without resolving (an address literal, a bad scheme).
import net from 'node:net';
import { DomainError } from '../../../core/errors.ts';

/** Non-public ranges, named for the refusal message (IANA special-purpose registries). */
const RANGES: readonly (readonly [string, number, 'ipv4' | 'ipv6', string])[] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'ipv4', 'documentation'],
  ['192.88.99.0', 24, 'ipv4', '6to4 relay'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['198.51.100.0', 24, 'ipv4', 'documentation'],
  ['203.0.113.0', 24, 'ipv4', 'documentation'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved (and broadcast)'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['::ffff:0:0', 96, 'ipv6', 'IPv4-mapped'],
  ['::', 96, 'ipv6', 'IPv4-compatible'],
  ['64:ff9b::', 96, 'ipv6', 'NAT64'],
  ['64:ff9b:1::', 48, 'ipv6', 'NAT64 (local)'],
  ['100::', 64, 'ipv6', 'discard'],
  ['2001::', 23, 'ipv6', 'IETF protocol assignments'],
  ['2001:db8::', 32, 'ipv6', 'documentation'],
  ['2002::', 16, 'ipv6', '6to4'],
  ['fc00::', 7, 'ipv6', 'unique local (ULA)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const blocks = RANGES.map(([prefix, bits, family, name]) => {
  const list = new net.BlockList();
  list.addSubnet(prefix, bits, family);
  return { list, family, name };
});

/** Why an IP address is not a public unicast address ('loopback', 'private', …), or null when it is. */
export function nonPublicReason(address: string): string | null {
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!family) return 'not an IP address';
  // BlockList matches an IPv4 subnet on IPv4-mapped IPv6 addresses too; test each range in its own family first.
  for (const b of blocks) if (b.family === family && b.list.check(address, family)) return b.name;
  return null;
}

export const webhookUrlRefused = (message: string) => new DomainError('invalid', 'invalid-webhook-url', message, { field: 'url' });

/** The host part of a URL as an address literal (brackets of IPv6 removed), or null for a name. */
export function addressLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : null;
}

export const MAX_URL_LENGTH = 2000;

/** The ports webhooks are always sent to: HTTP's and HTTPS's. */
export const STANDARD_PORTS: readonly number[] = [80, 443];

/** Where webhooks may go (WEBHOOKS_ALLOW_PRIVATE_TARGETS, WEBHOOKS_TARGET_PORTS). */
export interface WebhookTargetRules {
  /** Non-public addresses too (tests, closed networks). */
  allowPrivateTargets: boolean;
  /** Ports allowed besides 80 and 443, or 'any'. */
  extraPorts: readonly number[] | 'any';
}

/** The URL's port (its scheme's when it names none). */
export const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** Whether the rules allow the URL's port. */
export function portAllowed(url: URL, rules: Pick<WebhookTargetRules, 'extraPorts'>): boolean {
  const port = portOf(url);
  return rules.extraPorts === 'any' || STANDARD_PORTS.includes(port) || rules.extraPorts.includes(port);
}

/**
 * The URL an endpoint may be registered with: absolute http(s), no user-info, no fragment,
 * an allowed port, and (unless private targets are allowed) not an address literal outside
 * the public range. A name is resolved and checked at each send, not here.
 */
export function checkWebhookUrl(text: string, rules: WebhookTargetRules): URL {
  if (text.length > MAX_URL_LENGTH) throw webhookUrlRefused(`url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw webhookUrlRefused('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw webhookUrlRefused('url must be an http or https URL');
  if (url.username || url.password) throw webhookUrlRefused('url must not carry a user name or password');
  if (url.hash) throw webhookUrlRefused('url must not have a fragment');
  if (!portAllowed(url, rules)) {
    const extra = rules.extraPorts === 'any' ? [] : rules.extraPorts;
    throw webhookUrlRefused(`url must use port ${[...STANDARD_PORTS, ...extra].join(', ')} (WEBHOOKS_TARGET_PORTS adds ports)`);
  }
  const literal = addressLiteral(url.hostname);
  const reason = literal && !rules.allowPrivateTargets ? nonPublicReason(literal) : null;
  if (reason) throw webhookUrlRefused(`url points to a ${reason} address, which webhooks are not sent to (WEBHOOKS_ALLOW_PRIVATE_TARGETS)`);
  return url;
}
