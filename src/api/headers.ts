// The header names of the API, declared once: the client and receivers send and read them, the
// sandbox reads and answers them, and the OpenAPI document and the request log's redaction name them.

/** Digest authentication (spec 5): the merchant's API key, Unix seconds, and the HMAC over both and the request. */
export const DIGEST_HEADERS = {
  key: 'x-digest-key',
  timestamp: 'x-digest-timestamp',
  signature: 'x-digest-signature',
} as const

/** The HMAC of a webhook body, sent with every webhook (spec 6). */
export const WEBHOOK_SIGNATURE_HEADER = 'x-webhook-auth'

/**
 * The id of the webhook delivery (its delivery log entry), sent with every webhook. Delivery is
 * at least once: a replica that crashes mid-send leaves its delivery to be sent again, with the
 * same id, so a receiver drops the ids it has already handled (docs/webhooks.md).
 */
export const WEBHOOK_DELIVERY_ID_HEADER = 'x-webhook-delivery-id'

/** The admin token a sandbox prints at start, for its sandbox-wide controls. */
export const ADMIN_TOKEN_HEADER = 'x-sandbox-admin-token'

/** Sent with a money-moving POST so that a retry moves money once (spec 4.1). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

/** The id of a request in the sandbox's request log, on every answer (and as requestId in error bodies). */
export const REQUEST_ID_HEADER = 'Request-Id'
