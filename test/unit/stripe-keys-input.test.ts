import { describe, expect, it } from 'vitest';
import { stripeSecretInput } from '../../bin/keys/stripe.ts';
import { decodeForm, fingerprint } from '../../bin/local/stripe/form.ts';

const SECRET = 'sk_test_abc123';
const WEBHOOK = 'whsec_def456';

describe('npm run keys -- stripe: where the values come from', () => {
  it('takes both from the environment without reading stdin', () => {
    const stdin = () => {
      throw new Error('stdin read');
    };
    expect(stripeSecretInput({ STRIPE_SECRET_KEY: SECRET, STRIPE_WEBHOOK_SECRET: WEBHOOK }, stdin)).toEqual({
      secretKey: SECRET,
      webhookSecret: WEBHOOK,
    });
  });

  it('takes them from stdin, two lines, or the one the environment lacks', () => {
    expect(stripeSecretInput({}, () => `${SECRET}\n${WEBHOOK}\n`)).toEqual({
      secretKey: SECRET,
      webhookSecret: WEBHOOK,
    });
    expect(stripeSecretInput({ STRIPE_SECRET_KEY: SECRET }, () => `${WEBHOOK}\n`)).toEqual({
      secretKey: SECRET,
      webhookSecret: WEBHOOK,
    });
  });

  it('refuses a value of the wrong kind without repeating it', () => {
    const refusal = (env: NodeJS.ProcessEnv, stdin = '') => {
      try {
        stripeSecretInput(env, () => stdin);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const publishable = refusal({}, `pk_test_nope123\n${WEBHOOK}`);
    expect(publishable).toMatch(/secret key/);
    expect(publishable).not.toContain('pk_test_nope123');
    const webhook = refusal({ STRIPE_SECRET_KEY: SECRET, STRIPE_WEBHOOK_SECRET: 'not-a-whsec' });
    expect(webhook).toMatch(/webhook secret/);
    expect(webhook).not.toContain('not-a-whsec');
  });
});

describe("the stand-in's form decoding (Stripe's bracketed keys)", () => {
  it('nests objects and turns indexed keys into arrays', () => {
    expect(
      decodeForm(
        'amount=2500&metadata[orderId]=7&automatic_payment_methods[enabled]=true&payment_method_types[0]=card',
      ),
    ).toEqual({
      amount: '2500',
      metadata: { orderId: '7' },
      automatic_payment_methods: { enabled: 'true' },
      payment_method_types: ['card'],
    });
  });

  it('fingerprints the same parameters the same, whatever their order', () => {
    expect(fingerprint(decodeForm('a=1&b[x]=2&b[y]=3'))).toBe(fingerprint(decodeForm('b[y]=3&a=1&b[x]=2')));
    expect(fingerprint(decodeForm('a=1'))).not.toBe(fingerprint(decodeForm('a=2')));
  });
});
