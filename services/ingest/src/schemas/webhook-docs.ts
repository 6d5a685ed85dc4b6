import type { OpenApiDocumentObject } from '@signals/http-kit'

const EXAMPLE_JSON = { user_id: 'u-123', action: 'buy', ticker: 'MNQ1!', quantity: 1 }

/**
 * What the webhook's route schema cannot say (the body is read raw and parsed by what it holds, and any
 * query parameter may be a field): the four ways to send an alert, for `/docs`. See docs/alert-formats.md.
 */
export function describeWebhook(document: OpenApiDocumentObject): OpenApiDocumentObject {
  for (const [path, operationId] of [
    ['/webhook/alert', 'postWebhookAlert'],
    ['/webhook/alert/{secret}', 'postWebhookAlertWithSecret'],
    ['/webhook/s/{token}', 'postWebhookSignalSource'],
  ] as const) {
    const source = path === '/webhook/s/{token}'
    const operation = document.paths?.[path]?.post
    if (!operation) continue
    Object.assign(operation, {
      operationId,
      tags: ['webhook'],
      security: [],
      summary: source ? "Send an alert to a signal source's URL" : 'Send an alert (TradingView and other platforms)',
      description:
        'An alert in any of four forms, read in this order: the `message` query parameter; the body as **JSON** ' +
        '(an object, or a JSON string holding one; a `message` field inside is parsed too); the body as ' +
        '**text** with `Label: value` lines (TradingView sends `text/plain` when the message is not JSON); a ' +
        '**form-encoded** body (`application/x-www-form-urlencoded`, each field or a `message` field); and, when ' +
        'the body is empty, the `x-alert-message` header. Other query parameters (e.g. `user_id`) fill the ' +
        'fields the alert lacks. The content type is not trusted: the body is parsed by what it holds. ' +
        'With WEBHOOK_SECRET set, the secret goes in the path (`/webhook/alert/{secret}`), the `secret` or ' +
        '`passphrase` query parameter, or a `secret`/`passphrase` field. 200 once the alert is on the bus; ' +
        '400 unreadable, 401 wrong secret, 413 too large, 429 rate limited, 503 bus unavailable (retry).' +
        (source
          ? " On a signal source's URL the token in the path is the credential (no secret): 401 when it is unknown " +
            "or revoked. A trader's source delivers to its owner only: `user_id` is not needed, and another trader's is refused (403)."
          : ''),
      parameters: [
        ...(path.includes('{secret}') ? [{ name: 'secret', in: 'path', required: true, schema: { type: 'string' }, description: 'The webhook secret' }] : []),
        ...(source ? [{ name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: "The source's URL token, shown when it was made or rotated" }] : []),
        { name: 'message', in: 'query', required: false, schema: { type: 'string' }, description: 'The alert text (any form), taking precedence over the body' },
        { name: 'user_id', in: 'query', required: false, schema: { type: 'string' }, description: 'Any alert field may be given as a query parameter, used when the alert lacks it' },
        { name: 'x-alert-message', in: 'header', required: false, schema: { type: 'string' }, description: 'The alert text when the body is empty' },
      ],
      requestBody: {
        required: false,
        content: {
          'application/json': { schema: { type: 'object', additionalProperties: true }, example: EXAMPLE_JSON },
          'text/plain': { schema: { type: 'string' }, example: 'User ID: u-123\nAction: Buy\nTicker: MNQ1!\nQuantity: 1' },
          'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } }, example: EXAMPLE_JSON },
        },
      },
    })
  }
  return document
}
