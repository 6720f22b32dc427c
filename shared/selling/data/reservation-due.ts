import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Reservation } from '../domain/reservation.ts';
import { db, labelled, tableName, TransactionCancelled, transactWrite } from '../../data/client.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';

/**
 * Reservations' due entries (`RESERVATION_DUE#<minute>#<shard>`, sorted by `<expiresAt>#<id>`): what the hold
 * writes so that it lapses (`putDue`), and the lapsing job's reads (functions/jobs/release-reservations.ts): the
 * due entries of one minute's shard by bounded Query up to an instant, and how far the job has swept (its
 * checkpoint), so a run after an outage starts where the last one stopped: no minute is skipped and no Scan is
 * needed. The moves that end a hold delete its entry in their own transaction (reservations.ts); a checkout that
 * moves its expiry on leaves the entry, and the lapse re-files it if still unpaid then (`refileDue`).
 */

/**
 * Each minute's due entries are spread over this many partitions (`RESERVATION_DUE#<minute>#<shard>`, by the
 * reservation's id). The arithmetic, at the target of two events at 1,000 holds a second each: every hold made
 * in one minute with the same reservation minutes is due in the same minute, so that minute's entries take
 * 2,000 puts a second (1 unit each, `putDue`) while the holds are made, and the deletes of those that end
 * early (paid, released: 2 units each, in the ending transaction) and the lapse's re-files of the checkouts still
 * unpaid (a delete, 2, and a put, 2, into a later minute) land on minutes just as crowded: up to about 8,000 units a second on one
 * minute's entries. A partition key takes 1,000 a second: 16 shards take 500 each at that worst. The lapsing
 * job reads each minute's 16 shards (16 bounded Queries a minute).
 */
export const DUE_SHARDS = 16;

/** The minute bucket of an instant (`yyyy-mm-ddThh:mm`, UTC), the due entries' partition. */
export const dueMinute = (at: string | Date): string => new Date(at).toISOString().slice(0, 16);

type Filed = Pick<Reservation, 'id' | 'expiresAt' | 'dueAt'>;

/**
 * The instant a reservation's due entry is filed at: the hold's expiry. A checkout moves `expiresAt` on but leaves
 * the entry where it is (`dueAt` keeps its instant): nearly every checkout is paid within the hold's minutes, and
 * the paid move deletes the entry where it is, so moving it (a delete and a put in the checkout's transaction, 4 units)
 * is paid only by the few still unpaid when the entry comes due, which the lapse re-files (`refileDue`).
 */
export const filedAt = (reservation: Filed) => reservation.dueAt ?? reservation.expiresAt;

const keyAt = (id: number, at: string) => keys.reservationDue(dueMinute(at), id % DUE_SHARDS, at, id);

export const dueKey = (reservation: Filed) => keyAt(reservation.id, filedAt(reservation));

const dueItemAt = (id: number, at: string) => ({ ...keyAt(id, at), entity: 'ReservationDue', reservationId: id });

export const dueItem = (reservation: Pick<Reservation, 'id' | 'expiresAt'>) =>
  dueItemAt(reservation.id, reservation.expiresAt);

/**
 * A reservation still holding whose entry came due before its own `expiresAt` (a checkout moved it on): its entry moved
 * to `expiresAt`, with `dueAt`, in one transaction conditional on the reservation's state, expiry and entry as read, so
 * it lapses then. False when the reservation moved meanwhile (the caller reads it again).
 */
export async function refileDue(reservation: Reservation): Promise<boolean> {
  try {
    await transactWrite([
      labelled(REFILED, {
        Update: {
          TableName: tableName(),
          Key: keys.reservation(reservation.id),
          UpdateExpression: 'SET #dueAt = :to',
          ConditionExpression: '#status = :status AND #expiresAt = :to AND #dueAt = :from',
          ExpressionAttributeNames: { '#dueAt': 'dueAt', '#status': 'status', '#expiresAt': 'expiresAt' },
          ExpressionAttributeValues: {
            ':to': reservation.expiresAt,
            ':status': reservation.status,
            ':from': filedAt(reservation),
          },
        },
      }),
      { Delete: { TableName: tableName(), Key: dueKey(reservation) } },
      { Put: { TableName: tableName(), Item: dueItemAt(reservation.id, reservation.expiresAt) } },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(REFILED)) return false;
    throw error;
  }
}

/** The label of a re-file's reservation Update (client.ts `labelled`): its condition failed when the reservation moved. */
const REFILED = 'reservation refiled';

/**
 * The hold's due entry, put on its own just before the hold's transaction (1 write unit, where one in the
 * transaction costs 2). Before, never after: a hold whose transaction commits always has its entry, so it
 * always lapses. A transaction that is then refused (or never sent) leaves an entry naming no reservation,
 * which the lapsing job deletes when its minute comes (`forgetDue`); nothing reads it before.
 */
export async function putDue(reservation: Pick<Reservation, 'id' | 'expiresAt'>): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: dueItem(reservation) }));
}

/** A due entry as the lapsing job reads it: the reservation it names and its own key. */
export interface DueEntry {
  reservationId: number;
  key: { PK: string; SK: string };
}

/** The entries due by `at` in one minute's shard, earliest first, at most `limit`. */
export async function dueEntries(minute: string, shard: number, at: Date, limit: number): Promise<DueEntry[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.reservationsDueIn(minute, shard), { before: `${at.toISOString()}#~` }),
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => ({
    reservationId: Number(item.reservationId),
    key: { PK: String(item.PK), SK: String(item.SK) },
  }));
}

/**
 * Deletes a due entry that names no reservation (its hold's transaction was refused after `putDue`): due, so
 * at least a minute old, its hold can no longer commit. Left, it would fill the minute's page for good.
 */
export async function forgetDue(key: DueEntry['key']): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: key }));
}

const CHECKPOINT = keys.maintenanceCheckpoint('release-reservations', 'swept');

/** The last minute the job drained whole, or undefined before its first run. */
export async function sweptMinute(): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: CHECKPOINT, ConsistentRead: true }));
  return Item?.minute as string | undefined;
}

export async function recordSweptMinute(minute: string): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...CHECKPOINT, entity: 'Checkpoint', minute } }));
}
