import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PaymentProcessorResource, type PaymentProcessor } from '../domain/payment-processor.ts';
import * as z from '../../schema.ts';
import { db, tableName } from '../../data/client.ts';
import { parseItem } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';

/**
 * The account's one payment processor configuration, `PAYMENT_PROCESSOR` / `PAYMENT_PROCESSOR`:
 * public settings only. The secret key is never in the table: it would live in Secrets
 * Manager, readable by the payment functions alone.
 */
// The answer without `processor` (the stage decides it), as stored beside its keys.
const PaymentProcessorItem = z.omit(z.object(PaymentProcessorResource.shape), { processor: true });

export async function findPaymentProcessor(): Promise<PaymentProcessor | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.paymentProcessor }));
  return Item ? parseItem(PaymentProcessorItem, Item, 'payment processor') : undefined;
}

/** Sets (replaces) the configuration: the seed and the tests; no route writes it. */
export async function putPaymentProcessor(settings: PaymentProcessor): Promise<void> {
  const { provider, publishableKey, currency, mode, merchantName } = settings;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.paymentProcessor,
        entity: 'PaymentProcessor',
        provider,
        publishableKey,
        currency,
        mode,
        merchantName,
      },
    }),
  );
}
