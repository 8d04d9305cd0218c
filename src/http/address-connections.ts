// MAX_CONNECTIONS_PER_ADDRESS (docs/security.md "Slow clients"): one client address holds
// at most that many of the node's connections, so that a single client cannot take all
// MAX_CONNECTIONS with slow requests. The address is the socket's peer, or, for a peer
// TRUST_PROXY trusts (a reverse proxy carrying many clients' requests), the client
// address its current request forwards (`X-Forwarded-For`, as req.ip reads it).
//
// - A connection from a peer that is not a trusted proxy counts for that peer from its
//   acceptance: past the cap it is closed at once, unanswered (as past MAX_CONNECTIONS).
// - A connection from a trusted proxy counts, from each request on, for the address that
//   request forwards; a request whose address already holds its cap of other connections
//   is answered 429 `too-many-connections` and its connection closed. The proxy's own
//   limit (nginx `limit_conn`) is the place to cap its clients' connections to it.
import net from 'node:net';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TrustProxy } from '../kernel-config.ts';
import { DomainError } from '../core/http-face.ts';

/** proxy-addr's names for address ranges, as TRUST_PROXY accepts them (src/kernel-config.ts). */
const NAMED_RANGES: Record<string, [string, number][]> = {
  loopback: [['127.0.0.0', 8], ['::1', 128]],
  linklocal: [['169.254.0.0', 16], ['fe80::', 10]],
  uniquelocal: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['fc00::', 7]],
};

/** An IPv4 address seen through an IPv6 socket (`::ffff:a.b.c.d`) as the IPv4 address it is. */
const plain = (address: string): string => (address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address);

/**
 * Whether TRUST_PROXY trusts a socket's peer to forward other clients' addresses: never
 * when unset, always for `true` and a hop count (the nearest hop is trusted whatever it is),
 * else when the peer is in the list.
 */
export function trustsPeer(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (trust === true || typeof trust === 'function') return () => true;
  const list = new net.BlockList();
  const familyOf = (address: string) => (net.isIPv6(address) ? 'ipv6' : 'ipv4');
  for (const entry of trust) {
    const named = NAMED_RANGES[entry];
    const [address, bits] = entry.split('/');
    if (named) for (const [prefix, size] of named) list.addSubnet(prefix, size, familyOf(prefix));
    else if (bits === undefined) list.addAddress(address!, familyOf(address!));
    else list.addSubnet(address!, Number(bits), familyOf(address!));
  }
  return (peer) => {
    const address = plain(peer);
    return list.check(address, familyOf(address));
  };
}

const tooMany = (limit: number) =>
  new DomainError('too-many', 'too-many-connections', `At most ${limit} connections per client address`, { limit });

/**
 * Applies the cap to the server's connections; answers the per-request step for
 * connections from trusted proxies (null when nothing is done per request: no cap, or no
 * proxy trusted). The step answers a refusal to send, or null to go on.
 */
export function connectionsPerAddress(
  server: Server,
  limit: number,
  trust: TrustProxy,
): ((req: FastifyRequest, reply: FastifyReply) => DomainError | null) | null {
  if (limit === 0) return null;
  const trusted = trustsPeer(trust);
  /** The connections each client address holds. */
  const holders = new Map<string, Set<Socket>>();
  /** The address each counted connection holds for. */
  const holderOf = new WeakMap<Socket, string>();
  const release = (socket: Socket) => {
    const address = holderOf.get(socket);
    if (address === undefined) return;
    holderOf.delete(socket);
    const set = holders.get(address)!;
    set.delete(socket);
    if (set.size === 0) holders.delete(address);
  };
  /** Counts `socket` for `address`; false when the address already holds `limit` other connections. */
  const hold = (socket: Socket, address: string): boolean => {
    let set = holders.get(address);
    if ((set?.size ?? 0) >= limit) return false;
    release(socket);
    if (!set) holders.set(address, (set = new Set()));
    set.add(socket);
    holderOf.set(socket, address);
    return true;
  };
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined || trusted(peer)) return; // counted per request, for the address it forwards
    if (!hold(socket, plain(peer))) {
      socket.destroy();
      return;
    }
    socket.once('close', () => release(socket));
  });
  if (trust === false) return null;
  return (req, reply) => {
    const socket = req.raw.socket;
    const peer = socket.remoteAddress;
    if (peer === undefined || !trusted(peer)) return null;
    const address = plain(req.ip);
    if (holderOf.get(socket) === address) return null;
    const first = !holderOf.has(socket);
    if (!hold(socket, address)) {
      reply.header('connection', 'close');
      return tooMany(limit);
    }
    if (first) socket.once('close', () => release(socket));
    return null;
  };
}
