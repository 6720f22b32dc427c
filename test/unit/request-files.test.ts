import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closureOf, linesOf } from '../support/import-closure.ts';

/**
 * How many files a reader opens to follow one request: the project files its handler reaches through value imports,
 * less the platform every route stands on. The platform is what shared/README.md "Finding your room" keeps beside
 * the capabilities: every module of shared/ outside a capability's folder (route() and its middy stack, errors,
 * config, logger, clock, the schemas' helpers, the AWS and DynamoDB clients, the key registry, read-decide-write, ids,
 * money, rate limits, sign-in's shared/auth/). A capability is a folder of shared/ whose README has a door table
 * (import-layers.test.ts reads the same tables), so what a request reaches of its capabilities is what is counted.
 * Each request's figure may only fall: `ceiling` is what it reaches today, `goal` what a house cut by capability
 * should reach (README "Architecture"). Lower a ceiling when a change brings a request under it.
 */
const REQUESTS = [
  {
    request: 'POST /my-account/reservations',
    handler: 'functions/my-account/reservation-create.ts',
    ceiling: 25,
    goal: 25,
  },
  { request: 'POST /events', handler: 'functions/events/create.ts', ceiling: 27, goal: 30 },
  {
    request: 'POST /my-account/reservations/{id}/checkout',
    handler: 'functions/my-account/reservation-checkout.ts',
    ceiling: 41,
    goal: 45,
  },
  { request: 'POST /payments/stripe/webhook', handler: 'functions/payments/stripe-webhook.ts', ceiling: 34, goal: 40 },
];

const ROOT = path.resolve(import.meta.dirname, '../..');
const hasDoorTable = (readme: string) =>
  existsSync(path.join(ROOT, readme)) && /^\|\s*door\s*\|/im.test(readFileSync(path.join(ROOT, readme), 'utf8'));
const CAPABILITIES = readdirSync(path.join(ROOT, 'shared'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && hasDoorTable(`shared/${entry.name}/README.md`))
  .map((entry) => `shared/${entry.name}/`);
const isPlatform = (file: string) =>
  file.startsWith('shared/') && !CAPABILITIES.some((capability) => file.startsWith(capability));

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
