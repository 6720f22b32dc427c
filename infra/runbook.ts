/**
 * What to do first when an alarm fires: appended to each alarm's description (so the
 * notification carries it) with the dashboard's link; README "Operations" has the same
 * table for reading ahead. Keyed by the alarm name's suffix (`<route>-errors` and
 * `<route>-duration` by their kind).
 */
export const FIRST_STEPS = {
  'api-5xx-rate':
    'find the route on the dashboard (Lambda errors per route); its log group has the `unhandled error` line with the request id. If it started with a release, redeploy the previous commit.',
  'api-latency-p99':
    'find the route with the highest p99 duration on the dashboard; then look for DynamoDB throttles and cold starts (Init Duration in the REPORT lines).',
  errors:
    "Logs Insights on the function's log group: filter level = 'ERROR' | sort @timestamp desc. A timeout logs `Task timed out`; a failed start has no request id.",
  duration:
    "Logs Insights: filter @type = 'REPORT' | stats pct(@duration, 99) by bin(5m); a slow dependency (SES, Cognito) logs dependency timeouts; DynamoDB latency is on the dashboard.",
  throttles:
    'the route hit its reserved concurrency (infra/concurrency.ts): a burst of logins (guessing?), photo uploads or deep pages, or a slow dependency holding invocations. Raise the number only for legitimate traffic.',
  'lambda-throttles':
    'Lambda console, account concurrency: which functions hold it (ConcurrentExecutions per function); cap the noisy one or ask AWS for a higher quota.',
  'table-throttled-requests':
    "the dashboard's DynamoDB widgets: a traffic step (on-demand adapts in minutes) or a hot key (a gate rush on one event's statistics shards, a sale on one list block); the SDK retries.",
  'table-system-errors':
    "AWS Health Dashboard for DynamoDB in the stage's region; the SDK retries them. If it lasts, open an AWS support case.",
  'migrations-failed':
    "`npm run migrations -- --stage <s>`: the ledger's lastError and the runner's log group; fix the cause, then `npm run migrations -- --stage <s> --resume` goes on from its checkpoint.",
  'webhook-deliveries-dead':
    'GET /webhooks, then GET /webhooks/{id}/deliveries of the failing one (failingSince set, or disabled): each dead delivery has the receiver\'s last status. Once it answers, POST /webhooks/{id}/deliveries/redeliver {"from", "to"} sends again what it missed in a time range (…/{deliveryId}/retry: one); PATCH /webhooks/{id} {"enabled": true} turns a disabled one back on.',
  'webhook-disabled':
    'GET /webhooks: the disabled one\'s disabledReason. A lost administrator: a colleague with tickets:read takes it over with PATCH /webhooks/{id} {"url": <same>, "enabled": true}; a receiver gone or failing: fix it, turn it back on (PATCH {"enabled": true}), then POST /webhooks/{id}/deliveries/redeliver {"from", "to"} for what it missed.',
  'webhook-oldest-pending-age':
    "no reading: the dispatcher does not run (its errors alarm, its log group, its EveryMinute rule enabled?). A reading: GET /webhooks shows the failing subscription (failingSince), GET /webhooks/{id}/deliveries its receiver's answers; if every subscription fails at once, suspect the sending side (the dispatcher's log group, `webhook attempt failed`).",
  'webhook-stream-iterator-age':
    "the stream consumer's log group: REPORT durations near its 5-minute timeout mean a slow table (a batch's first attempts end within 1 s), errors mean retries (its errors alarm). A burst of ticket changes (an import) catches up by itself; a stuck consumer does not, and the mapping gives records up at 12 hours.",
  'webhook-stream-given-up':
    "each message of the on-failure queue points to a batch of changes (a stream shard, a range of sequence numbers); the consumer's log group says why (`not recorded`). Fix that; then, within 24 h of the changes (the stream keeps them that long), `npm run webhooks:replay -- --stage <s>` reads each batch back from the stream, hands it to the consumer and deletes the message (`--dry-run` counts first; a replay records nothing twice).",
  'webhook-stream-errors':
    "Logs Insights on the stream consumer's log group: filter level = 'ERROR' | sort @timestamp desc (a timeout logs `Task timed out`). The batch is retried from the first change not recorded: nothing is lost unless the on-failure queue's alarm follows.",
  'webhook-dispatcher-errors':
    "Logs Insights on the dispatcher's log group: filter level = 'ERROR' | sort @timestamp desc. Nothing is lost: due retries wait for the next run, a minute later; if every run fails, the oldest undelivered message's alarm follows.",
  'payment-unmatched':
    "Logs Insights on the webhook function's log group: filter message = 'Stripe payment paid no order'. Each line names the PaymentIntent, the order it named (GET /orders/{id}; the order records it in paymentProblems), why (`reason`) and its refund; a `refundRefused` one is refunded by hand in Stripe's dashboard. Many `no_order`: another system takes payments on this stage's Stripe account.",
  'payment-disputed':
    "Logs Insights on the webhook route's log group: filter message = 'Payment disputed' for the orderId and disputeId; GET /orders?dispute=open lists them. Answer the dispute with evidence in Stripe's dashboard (Payments, Disputes) before its due date; cancelling the order (POST /orders/{id}/cancel) voids its tickets without a refund.",
  'refund-failed':
    "Logs Insights on the webhook route's log group: filter message like 'Refund failed' for the orderId, refundId and reason; GET /orders/{id} shows refundFailures. Contact the buyer and return the money another way (a bank transfer); the order stays refunded.",
  'paid-orders-errors':
    "Logs Insights on the issuing consumer's log group: filter message = 'paid order not issued: retried' (the orderId and error). Nothing is lost: the batch is retried from that order; if its retries run out, the given-up alarm follows.",
  'paid-orders-given-up':
    'each message of the queue points to paid orders the consumer gave up on; they stay pending with their payment and the every-minute sweep of stuck orders issues them (its log: `stuck order not swept` if it cannot). GET /orders?status=pending shows them; delete the message once they are active.',
  'invoice-still-due':
    "Logs Insights on the reservations' lapsing job's log group: filter message = 'invoice still due' (the orderId, when it was filed, the error). Its first failure is in the issuing consumer's log ('paid orders not invoiced: filed as due'). Fix the cause (a seller's settings, a throttled counter); the job numbers it the next minute, in its gapless series: GET /orders/{id}/invoices shows it.",
  'ses-bounce-rate':
    'SES console, reputation: which mails bounce (claim, verification or reset mail to mistyped addresses?). Fix the source before SES pauses sending at 10 %.',
  'ses-complaint-rate':
    'SES console, reputation: which mail is reported as spam; stop sending it before SES pauses the account at 0.5 %.',
} as const;

export type RunbookEntry = keyof typeof FIRST_STEPS;
