import { describe, expect, it } from 'vitest';
import { closureOf, linesOf } from '../support/import-closure.ts';

/**
 * How many files a reader opens to follow one request: the project files its handler reaches through value imports,
 * less the platform every route shares (route(), the answers and envelopes, errors, config, logger, clock, the
 * schema helpers, the AWS and DynamoDB clients and the key registry, and what they reach; sign-in's shared/auth/).
 * Each request's figure may only fall: `ceiling` is what it reaches today, `goal` what a house cut by capability
 * should reach (README "Architecture"). Lower a ceiling when a change brings a request under it.
 */
const PLATFORM_ENTRIES = [
  'shared/http/route.ts',
  'shared/http/answers.ts',
  'shared/http/envelopes.ts',
  'shared/errors.ts',
  'shared/config.ts',
  'shared/logger.ts',
  'shared/clock.ts',
  'shared/schema.ts',
  'shared/aws-clients.ts',
  'shared/data/client.ts',
  'shared/data/stored-items.ts',
  'shared/data/keys.ts',
];

// Promo codes and the pricing (taxes, booking fees) added what a sale prices with: the hold reaches the code's rule,
// its reads and its use (promo-discount.ts, selling/data/promo-codes.ts, selling/domain/promo-code.ts) and selling/domain/pricing.ts,
// pricing-schemas.ts and sale-prices.ts (29 before them); POST /events the tax and fee fields (37 before); the
// checkout the three pricing modules (84 before). Each stored entity's module (the event's items, read by the stock
// and the sale's event reads) added one more to each; the checkout's and the hold's bodies, each one schema in its own
// module (selling/domain/checkout-body.ts, reservation-body.ts) rather than an interface beside the contract, one more
// to the checkout and one to the hold. A late
// payment whose hold lapsed takes its code's use again from any shard with one left, as a hold plans it
// (checkout-payment.ts, which the free checkout pays through): the checkout reaches promo-discount.ts,
// selling/data/promo-codes.ts and selling/domain/promo-code.ts (89 before). A free checkout is recorded paid and issued
// by the table stream's consumer as a paid one is, so the checkout reaches no ticket writer, mail or refund (92 before),
// and the customer's order counts are read from a module of their own, not the orders' writes (50 before). POST /events
// runs its own use case's module (events/use-cases/create-event.ts), not the edits' and their reads (40 before).
const REQUESTS = [
  {
    request: 'POST /my-account/reservations',
    handler: 'functions/my-account/reservation-create.ts',
    ceiling: 37,
    goal: 25,
  },
  { request: 'POST /events', handler: 'functions/events/create.ts', ceiling: 34, goal: 30 },
  {
    request: 'POST /my-account/reservations/{id}/checkout',
    handler: 'functions/my-account/reservation-checkout.ts',
    ceiling: 49,
    goal: 45,
  },
  { request: 'POST /payments/stripe/webhook', handler: 'functions/payments/stripe-webhook.ts', ceiling: 37, goal: 40 },
];

const platform = new Set(PLATFORM_ENTRIES.flatMap((entry) => [...closureOf(entry)]));
const isPlatform = (file: string) => platform.has(file) || file.startsWith('shared/auth/');

/** The files a request reaches beyond the platform, and their lines. */
function requestReach(handler: string) {
  const files = [...closureOf(handler)].filter((file) => !isPlatform(file));
  return { files: files.length, lines: files.reduce((sum, file) => sum + linesOf(file), 0) };
}

describe('the files a request reaches beyond the platform', () => {
  it("counts a request's own capability, not the platform it stands on", () => {
    const hold = closureOf('functions/my-account/reservation-create.ts');
    expect(hold.has('shared/selling/use-cases/reservations.ts')).toBe(true);
    expect(isPlatform('shared/selling/use-cases/reservations.ts')).toBe(false);
    expect(isPlatform('shared/http/route.ts') && isPlatform('shared/data/keys.ts')).toBe(true);
  });

  for (const { request, handler, ceiling, goal } of REQUESTS)
    it(`${request}: no more files than it reaches today (${ceiling}; the goal ${goal})`, () => {
      const reach = requestReach(handler);
      console.info(`${request}: ${reach.files} files, ${reach.lines} lines beyond the platform (goal ${goal})`);
      expect(reach.files).toBeLessThanOrEqual(ceiling);
    });
});
