import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import type { NewEvent } from '#shared/events/domain/event';
import { NewEventBody } from '#shared/events/contract/event';
import { createEventFor } from '#shared/events/use-cases/create-event';
import { updateEventFor } from '#shared/events/use-cases/edit-events';
import { batchWrite, PARALLEL_WRITES } from './batch-write.ts';
import { capture, WriteSet } from './capture.ts';

/**
 * Events as an organiser makes them through the API: `POST /events`'s use case with the body the
 * route would parse (a draft with its types, their stock and its history's first entry), then, for one to be listed,
 * `PATCH /events/{id} {published: true}`'s (its search entries, counts and history).
 */

/** The body `POST /events` would parse for an input (`publishedDate` is set by the publication, not sent). */
export const creationBody = ({ startsAt, published: _published, publishedDate: _date, ...fields }: NewEvent) =>
  NewEventBody.parse({ ...fields, start: startsAt });

/** Who the seeds' events are made by: `npm start`'s first administrator (`admin@demo.test`). */
export const SEED_ORGANISER = 1;

/** Use-case calls in flight at once in a batch. */
const CONCURRENCY = 8;

async function pooled<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

/** Writes the items a WriteSet gathered (its counters stay for `writeCounters`). */
async function writeItems(set: WriteSet): Promise<void> {
  const { puts, deletes } = set.drainItems();
  await batchWrite([
    ...puts.map((Item) => ({ PutRequest: { Item } })),
    ...deletes.map((Key) => ({ DeleteRequest: { Key } })),
  ]);
}

async function writeCounters(set: WriteSet): Promise<void> {
  const updates = set.counterUpdates(tableName());
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_WRITES }, async () => {
      while (next < updates.length) await db.send(new UpdateCommand(updates[next++] as never));
    }),
  );
}

/**
 * Many events through the same use cases, batched: each creation and publication runs as the route runs it, with its
 * transaction captured (capture.ts) and what it would have written batch-written, the counters (events, drafts,
 * published) summed and added once. The drafts are written before their publications read them. Conditions are
 * dropped, as in every bulk seed: ids are fresh from the sequences. Answers the events' ids in the inputs' order.
 */
export async function organisedEvents(by: number, inputs: readonly NewEvent[]): Promise<number[]> {
  const caller = { id: by, eventScope: undefined };
  const set = new WriteSet();
  const bodies = inputs.map(creationBody);
  const ids = await capture(set, () => pooled(bodies, async (body) => (await createEventFor(caller, body)).id));
  if (!set.items.size && inputs.length)
    throw new Error('seed: no transaction was captured; check capture.ts against the SDK command names.');
  await writeItems(set);
  const listed = ids.filter((_, i) => inputs[i]!.published);
  await capture(set, () => pooled(listed, (id) => updateEventFor(caller, id, { published: true })));
  await writeItems(set);
  await writeCounters(set);
  return ids;
}
