import { now } from '../../clock.ts';
import {
  SIGNATURE_TYPES,
  versionHash,
  WAIVER_KINDS,
  type Waiver,
  type WaiverKind,
  type WaiverSignature,
  type WaiverVersion,
} from '../domain/waivers.ts';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_WAIVERS } from '../domain/event.ts';
import {
  db,
  MAX_TRANSACTION_ITEMS,
  queryPages,
  tableName,
  transactWrite,
  labelled,
  TransactionCancelled,
} from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { allocateIds } from '../../data/counters.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition, type Partition } from '../../data/key-conditions.ts';
import * as z from '../../schema.ts';

/**
 * Waivers, their versions and tickets' signatures (keys: shared/data/keys.ts).
 * - A waiver lives in its event's partition, under `WAIVER#EVENT#` (every ticket) or
 *   `WAIVER#TYPE#<typeId>#` (one type's tickets): a ticket's required waivers are two
 *   Queries of that partition, run together.
 * - Versions are items of `WAIVER#<id>` named by their hash; the waiver item carries the
 *   current hash, so listing needs no version reads.
 * - Signatures are items in the ticket's partition (`WAIVER_SIGNATURE#<waiverId>`): a
 *   ticket's signatures are one Query, and "signed once" is a put conditional on absence.
 * - An event's waivers (at most MAX_WAIVERS) are one bounded Query of its partition's
 *   `WAIVER#` prefix: the waiver routes (shared/events/use-cases/waivers.ts) find one by id.
 */
const WAIVER = 'Waiver';
const VERSION = 'WaiverVersion';
const SIGNATURE = 'WaiverSignature';

const WaiverItem = storedSchema<Waiver>()(
  z.lazy(() =>
    z.object({
      id: z.number(),
      eventId: z.number(),
      ticketTypeId: z.nullable(z.number()),
      title: z.string(),
      kind: z.enum(WAIVER_KINDS),
      versionHash: z.string(),
      versionPublished: z.string(),
      created: z.string(),
    }),
  ),
);
const SignatureItem = storedSchema<WaiverSignature>()(
  z.lazy(() =>
    z.object({
      ticketId: z.number(),
      waiverId: z.number(),
      versionHash: z.string(),
      signatureKey: z.string(),
      signatureType: z.enum(SIGNATURE_TYPES),
      signerName: z.nullable(z.string()),
      signedBy: z.number(),
      signedAt: z.string(),
    }),
  ),
);
const waiverFromItem = (item: Record<string, unknown>): Waiver => parseItem(WaiverItem, item, 'waiver');
const signatureFromItem = (item: Record<string, unknown>): WaiverSignature =>
  parseItem(SignatureItem, item, 'waiver signature');

const queryAll = (partition: Partition, skPrefix: string) =>
  queryPages({ TableName: tableName(), ...keyCondition(partition, { beginsWith: skPrefix }) });

export interface NewWaiver {
  eventId: number;
  /** Omitted or null: required for every ticket of the event. */
  ticketTypeId?: number | null;
  title: string;
  kind?: WaiverKind;
  /** The text of the first version. */
  text: string;
}

/** Creates a waiver with its first version, in one transaction. */
export async function createWaiver(input: NewWaiver): Promise<Waiver> {
  const id = await allocateIds('WAIVER');
  const stamp = now().toISOString();
  const hash = versionHash(input.text);
  const waiver: Waiver = {
    id,
    eventId: input.eventId,
    ticketTypeId: input.ticketTypeId ?? null,
    title: input.title,
    kind: input.kind ?? 'standard',
    versionHash: hash,
    versionPublished: stamp,
    created: stamp,
  };
  const version: WaiverVersion = { waiverId: id, hash, text: input.text, published: stamp };
  await transactWrite([
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.waiver(waiver.eventId, waiver.ticketTypeId, id), entity: WAIVER, ...waiver },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    { Put: { TableName: tableName(), Item: { ...keys.waiverVersion(id, hash), entity: VERSION, ...version } } },
  ]);
  return waiver;
}

/**
 * Publishes a new text as the waiver's current version; tickets that signed an earlier
 * one stay signed (their record names the version they signed).
 */
export async function publishWaiverVersion(waiver: Waiver, text: string): Promise<Waiver> {
  const stamp = now().toISOString();
  const hash = versionHash(text);
  const version: WaiverVersion = { waiverId: waiver.id, hash, text, published: stamp };
  await transactWrite([
    { Put: { TableName: tableName(), Item: { ...keys.waiverVersion(waiver.id, hash), entity: VERSION, ...version } } },
    {
      Update: {
        TableName: tableName(),
        Key: keys.waiver(waiver.eventId, waiver.ticketTypeId, waiver.id),
        UpdateExpression: 'SET versionHash = :hash, versionPublished = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':hash': hash, ':now': stamp },
      },
    },
  ]);
  return { ...waiver, versionHash: hash, versionPublished: stamp };
}

/** Every waiver of the event, event-wide and per type: one Query of at most MAX_WAIVERS items. */
export async function eventWaivers(eventId: number): Promise<Waiver[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.waiversPrefix }),
      Limit: MAX_WAIVERS,
    }),
  );
  return Items.map(waiverFromItem);
}

/** A waiver's item and its version's, as stored (the waiver routes write them in the event's transaction). */
export const waiverItems = (waiver: Waiver, text: string) => ({
  waiver: { ...keys.waiver(waiver.eventId, waiver.ticketTypeId, waiver.id), entity: WAIVER, ...waiver },
  version: {
    ...keys.waiverVersion(waiver.id, waiver.versionHash),
    entity: VERSION,
    waiverId: waiver.id,
    hash: waiver.versionHash,
    text,
    published: waiver.versionPublished,
  },
});

/** The waivers a ticket of this event and type must sign: the event-wide ones and the type's. */
export async function requiredWaivers(eventId: number, ticketTypeId: number): Promise<Waiver[]> {
  const partition = keys.eventItems(eventId);
  const [eventWide, typeOnly] = await Promise.all([
    queryAll(partition, keys.eventWaiversPrefix),
    queryAll(partition, keys.typeWaiversPrefix(ticketTypeId)),
  ]);
  return [...eventWide, ...typeOnly].map(waiverFromItem);
}

/** Every waiver signature of a ticket: one Query. */
export async function ticketSignatures(ticketId: number): Promise<WaiverSignature[]> {
  const items = await queryAll(keys.ticketItems(ticketId), keys.waiverSignaturesPrefix);
  return items.map(signatureFromItem);
}

export type SigningRecord = Omit<WaiverSignature, 'waiverId' | 'versionHash' | 'ticketId'>;

/**
 * Links each waiver to its current version for the ticket, each put conditional on the
 * ticket not having signed that waiver yet. Waivers someone signed meanwhile are left
 * as they were (re-signing is a no-op); answers the signatures this call recorded.
 */
export async function recordSignatures(
  ticketId: number,
  waivers: readonly Waiver[],
  signing: SigningRecord,
): Promise<WaiverSignature[]> {
  const recorded: WaiverSignature[] = [];
  let pending = waivers.map(
    (waiver): WaiverSignature => ({ ticketId, waiverId: waiver.id, versionHash: waiver.versionHash, ...signing }),
  );
  while (pending.length) {
    const chunk = pending.slice(0, MAX_TRANSACTION_ITEMS);
    try {
      await transactWrite(
        chunk.map((signature) =>
          labelled(String(signature.waiverId), {
            Put: {
              TableName: tableName(),
              Item: { ...keys.waiverSignature(ticketId, signature.waiverId), entity: SIGNATURE, ...signature },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          }),
        ),
      );
      recorded.push(...chunk);
      pending = pending.slice(chunk.length);
    } catch (error) {
      // Some were signed by a concurrent request: keep their first signature, retry the rest.
      if (!(error instanceof TransactionCancelled)) throw error;
      const taken = new Set(
        chunk
          .filter((signature) => error.conditionFailed(String(signature.waiverId)))
          .map((signature) => signature.waiverId),
      );
      if (taken.size === 0) throw error;
      pending = pending.filter((signature) => !taken.has(signature.waiverId));
    }
  }
  return recorded;
}
