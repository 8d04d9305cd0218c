// The WebhookSender over node:http/https (docs/webhooks.md "Targets"). The URL's host is
// resolved once, every address it resolves to is checked (no loopback, private, link-local
// or other non-public address unless WEBHOOKS_ALLOW_PRIVATE_TARGETS=1), and the connection
// goes to exactly the checked address: the socket's lookup answers with it, so a DNS answer
// that changes between the check and the connection (rebinding) is never used, while the
// Host header and TLS SNI stay the URL's host name. Only ports 80, 443 and those
// WEBHOOKS_TARGET_PORTS adds are used (checked again here: a URL registered before the rule).
// Redirects are not followed. A failure is thrown with its class (what the endpoint's owner
// sees) and a message for the log.
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressLiteral, nonPublicReason, portAllowed, type WebhookTargetRules } from '../../modules/webhooks/index.ts';
import { WebhookSendError, type WebhookSendFailure, type WebhookSender } from '../../core/ports/webhooks.ts';
import { VERSION } from '../../version.ts';

export interface HttpSenderOptions extends WebhookTargetRules {
  /** WEBHOOKS_TIMEOUT in ms: the whole exchange, connection to the end of the response. */
  timeoutMs: number;
  /** Name resolution (tests put their own). */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

/** The response's body is read up to this much and dropped: only the status counts. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const systemResolve = (hostname: string) => dns.lookup(hostname, { all: true, verbatim: true });

/** The class of a failed connection or exchange: TLS (handshake, certificate) or anything else on the way. */
function connectionFailure(e: NodeJS.ErrnoException): WebhookSendFailure {
  const code = e.code ?? '';
  return /^(ERR_TLS_|ERR_SSL_|EPROTO$)|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) ? 'tls-failed' : 'connection-failed';
}

export function httpWebhookSender(options: HttpSenderOptions): WebhookSender {
  const resolve = options.resolve ?? systemResolve;

  /** The one address the request connects to, checked. */
  async function targetAddress(url: URL): Promise<{ address: string; family: number }> {
    const literal = addressLiteral(url.hostname);
    let addresses: { address: string; family: number }[];
    try {
      addresses = literal ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }] : await resolve(url.hostname);
    } catch (e) {
      throw new WebhookSendError('dns-failed', `cannot resolve ${url.hostname}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    if (addresses.length === 0) throw new WebhookSendError('dns-failed', `cannot resolve ${url.hostname}: no address`);
    if (!options.allowPrivateTargets) {
      // Every answer must be public: a name that also resolves inside is refused, whichever answer would be used.
      for (const a of addresses) {
        const reason = nonPublicReason(a.address);
        if (reason) {
          throw new WebhookSendError(
            'address-refused',
            `refused: ${url.hostname} resolves to ${a.address}, a ${reason} address (WEBHOOKS_ALLOW_PRIVATE_TARGETS is off)`,
          );
        }
      }
    }
    return addresses[0]!;
  }

  return {
    async send({ url: text, headers, body }) {
      const url = new URL(text);
      if (!portAllowed(url, options)) throw new WebhookSendError('port-refused', `refused: port ${url.port} is not allowed (WEBHOOKS_TARGET_PORTS)`);
      const target = await targetAddress(url);
      const pinned: LookupFunction = (_hostname, opts, callback) => {
        if (opts.all) callback(null, [target]);
        else callback(null, target.address, target.family);
      };
      const client = url.protocol === 'https:' ? https : http;
      return new Promise((resolvePromise, reject) => {
        const request = client.request(
          url,
          {
            method: 'POST',
            lookup: pinned,
            agent: false,
            headers: { ...headers, 'content-length': Buffer.byteLength(body), 'user-agent': `Scanbase-Webhooks/${VERSION}` },
            signal: AbortSignal.timeout(options.timeoutMs),
          },
          (response) => {
            let read = 0;
            response.on('data', (chunk: Buffer) => {
              read += chunk.length;
              if (read > MAX_RESPONSE_BYTES) response.destroy();
            });
            response.on('close', () => resolvePromise({ status: response.statusCode ?? 0 }));
            response.on('error', () => resolvePromise({ status: response.statusCode ?? 0 }));
          },
        );
        request.on('error', (e: NodeJS.ErrnoException) => {
          const timedOut = e.name === 'AbortError' || e.name === 'TimeoutError';
          reject(
            new WebhookSendError(
              timedOut ? 'timeout' : connectionFailure(e),
              timedOut ? `no answer within ${options.timeoutMs / 1000} s` : `cannot reach ${url.host} (${target.address}): ${e.code ?? e.message}`,
            ),
          );
        });
        request.end(body);
      });
    },
  };
}
