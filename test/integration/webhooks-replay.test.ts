import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { failedBatchOf, readFailedBatch, replayChanges } from '../../bin/maintenance/replay-ticket-changes.ts';
import { handler as ticketChanges } from '../../functions/jobs/ticket-changes.ts';
import { countWrites, describeWrites } from '../support/dynamo-writes.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';
import {
  deliveriesOf,
  editTicket,
  eventually,
  type Receiver,
  startReceiver,
  startWebhookWorkers,
  type WebhookWorkers,
  watchedTicket,
} from '../support/webhooks.ts';

// A table (with its stream) of this file's own, before anything reads TABLE_NAME: while this file
// breaks its consumer, no other file's consumer may record the change instead.
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('replay'));

/**
 * The repair after the `webhook-stream-given-up` alarm (README "Webhooks", `npm run webhooks:replay`):
 * a batch the consumer could not record is given up on as a pointer (shard, sequence numbers), as the
 * deployed mapping sends its on-failure queue; read back from the stream by that pointer and handed to
 * the consumer again, its change is delivered and recorded, and a replay repeated sends nothing.
 */
let receiver: Receiver;
let workers: WebhookWorkers;
let streams: DynamoDBStreamsClient;
/** A ticket and the subscriptions watching it, per test: made before the tests, within the hooks' longer limit. */
let once: Awaited<ReturnType<typeof watchedTicket>>;
let thrice: Awaited<ReturnType<typeof watchedTicket>>;
/**
 * Each test waits on the stream, the consumer and DynamoDB Local, all shared with the rest of `npm test` (when this
 * file's table was still made mid-run, its setup took 30 s of a clean clone's CI, 1 s alone): twice that here.
 */
const LIMIT_MS = 60_000;
beforeAll(async () => {
  receiver = await startReceiver();
  once = await watchedTicket(receiver, ['ticket.updated']);
  thrice = await watchedTicket(receiver, ['ticket.updated'], 3);
  // After the setup, from the stream's tip: the poller reads only what the tests change (DynamoDB Local answers
  // GetRecords one request at a time, holding up every other request meanwhile).
  workers = await startWebhookWorkers();
  streams = new DynamoDBStreamsClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB });
}, 2 * LIMIT_MS);
afterAll(async () => {
  await clearFaults();
  await workers.stop();
  await receiver.close();
  streams.destroy();
});

describe('a batch the consumer gave up on', () => {
  it(
    'is recorded delivered when replayed from its pointer, and a second replay sends nothing',
    async () => {
      const {
        token,
        ticket,
        hooks: [hook],
      } = once;
      // The receiver is shared with the other test, which may have run first (the tests run in any order).
      const before = receiver.received.length;

      // Every delivery the consumer records fails (a put to the table), on each of the poller's retries.
      workers.pauseConsumer();
      try {
        await editTicket(token, ticket.id, { chipNumber: 'R-1' });
        failCalls(db, { commands: ['PutItemCommand'], error: failures.dynamoInternal });
      } finally {
        workers.resumeConsumer();
      }
      await vi.waitFor(() => expect(workers.givenUp).not.toHaveLength(0), { timeout: LIMIT_MS - 10_000, interval: 50 });
      await clearFaults();
      // Each try sent the message, then could not record it: at least once, every copy with one webhook-id.
      expect(await deliveriesOf(token, hook!.id)).toEqual([]);
      const tries = receiver.received.length - before;
      expect(tries).toBeGreaterThan(0);
      const messageId = receiver.received[before]!.headers['webhook-id'];

      // What the on-failure queue holds is a pointer; the replay reads the records back from the stream.
      const [pointer] = workers.givenUp;
      const changes = await readFailedBatch(streams, failedBatchOf(JSON.stringify({ DDBStreamBatchInfo: pointer })));
      expect(changes.map((change) => change.dynamodb?.Keys?.PK?.S)).toEqual([`TICKET#${ticket.id}`]);
      expect(changes[0]!.dynamodb?.NewImage?.chipNumber).toEqual({ S: 'R-1' });
      expect(await replayChanges(changes, ticketChanges)).toEqual({ changes: 1, replayed: 1 });
      expect((await deliveriesOf(token, hook!.id)).map((d) => [d.status, d.attempts])).toEqual([['delivered', 1]]);
      expect(receiver.received).toHaveLength(before + tries + 1);

      // Replayed again (a message handled twice): the delivery is recorded, nothing is sent again.
      expect(await replayChanges(changes, ticketChanges)).toEqual({ changes: 1, replayed: 1 });
      await workers.dispatch();
      expect(receiver.received).toHaveLength(before + tries + 1);
      const ours = receiver.received.slice(before);
      expect(new Set(ours.map((m) => m.headers['webhook-id']))).toEqual(new Set([messageId]));
      expect(new Set(ours.map((m) => m.message.data.ticket.chipNumber))).toEqual(new Set(['R-1']));
    },
    LIMIT_MS,
  );
});

describe('what a delivered message costs', () => {
  it(
    'one write of the delivery, on no index; a lost record means the message is sent again, same webhook-id',
    async () => {
      const { token, ticket, hooks } = thrice;
      const sent = receiver.received.length;
      await editTicket(token, ticket.id, { chipNumber: 'W-1' });
      await eventually(workers, () => expect(receiver.received).toHaveLength(sent + 3));
      const firstIds = receiver.received.slice(sent).map((m) => m.headers['webhook-id']);

      // The records lost (as if the process ended between the sends and the writes): the change, read again, is
      // sent again with the same webhook-ids, and each delivery is recorded by one write off the due indexes.
      const deliveries = await Promise.all(
        hooks.map(async (hook) => ({ webhookId: hook.id, id: (await deliveriesOf(token, hook!.id))[0]!.id })),
      );
      for (const delivery of deliveries)
        await db.send(
          new DeleteCommand({ TableName: tableName(), Key: keys.delivery(delivery.webhookId, delivery.id) }),
        );
      const carried = workers.batches.filter((batch) =>
        batch.Records.some((record) => record.dynamodb?.Keys?.PK?.S === `TICKET#${ticket.id}`),
      );
      await workers.stopDispatcher();
      try {
        const { writes } = await countWrites(async () => {
          for (const batch of carried) expect(await ticketChanges(batch)).toEqual({ batchItemFailures: [] });
        });
        expect(writes.items.map((write) => write.key).sort(), describeWrites(writes)).toEqual(
          deliveries.map((d) => Object.values(keys.delivery(d.webhookId, d.id)).join(' ')).sort(),
        );
        for (const write of writes.items) expect(write.indexes, describeWrites(writes)).toEqual({});
      } finally {
        workers.startDispatcher();
      }
      expect(
        receiver.received
          .slice(sent + 3)
          .map((m) => m.headers['webhook-id'])
          .sort(),
      ).toEqual(firstIds.sort());
      for (const hook of hooks)
        expect((await deliveriesOf(token, hook!.id)).map((d) => [d.status, d.attempts])).toEqual([['delivered', 1]]);
    },
    LIMIT_MS,
  );
});
