// The outbound sender of webhook deliveries (docs/webhooks.md "Targets"; its adapter:
// src/adapters/webhooks/http-sender.ts, built by compose.ts). The endpoints' and deliveries'
// repository is the webhooks module's (src/modules/webhooks/core/ports.ts).

/** One HTTP POST of a delivery. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Why a send failed, as recorded on the delivery for the endpoint's owner: a generic class,
 * never the resolved addresses, the DNS answer or the error text (docs/webhooks.md "Errors").
 */
export type WebhookSendFailure = 'address-refused' | 'port-refused' | 'dns-failed' | 'connection-failed' | 'tls-failed' | 'timeout';

/** A refused or failed send: its class (what the owner sees) and a message for the node's log (may name addresses; never a secret). */
export class WebhookSendError extends Error {
  override name = 'WebhookSendError';
  readonly reason: WebhookSendFailure;
  constructor(reason: WebhookSendFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface WebhookSender {
  /**
   * POSTs the body and answers the response status; throws WebhookSendError when the port
   * is not allowed, the resolved address is not public (unless allowed), on a resolution,
   * connection or TLS failure, or on timeout.
   */
  send(request: WebhookRequest): Promise<{ status: number }>;
}
