import { randomBytes, randomUUID } from 'node:crypto';
import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { epochSeconds, now } from '../clock.ts';
import { answerProblems } from '../domain/event.ts';
import {
  applyScan,
  countedEvents,
  decideScan,
  isEligible,
  PROCESS_STATE,
  scannedEvents,
  signatureOf,
  toTicket,
  transferRefusal,
  type AttendeeAnswer,
  type ProcessState,
  type PurchaserContact,
  type Ticket,
  type TicketFields,
  type TicketInclude,
  type TicketRecord,
  type TransferState,
  type UpgradeState,
  type WithdrawnState,
} from '../domain/ticket.ts';
import { AppError, Conflict, NotFound, ValidationError } from '../errors.ts';
import type { Page } from '../domain/paging.ts';
import { db, queryPages, tableName, transactWrite, TransactionCancelled } from './client.ts';
import { allocateIds } from './counters.ts';
import { eventTitles, findTicketType, getEvent } from './events.ts';
import { keys } from './keys.ts';
import { countListed, StatsDelta } from './ticket-stats.ts';

/**
 * Tickets. One item `TICKET#<id>` each holds the whole record (resource, scans, claim,
 * purchaser, the events its type grants), so a check-in needs one read and one
 * transaction. Every change of a ticket goes through `commitChanges`, which writes, in
 * one TransactWriteItems:
 * - the ticket, conditional on its `version` (optimistic lock: two scanners racing admit
 *   it once; the loser re-reads and gets a refusal);
 * - the `sold` count of its type (capacity checked when it rises) and of the event's stats shard;
 * - the check-in statistics signature moves (shared/data/ticket-stats.ts);
 * - the bib uniqueness item when the bib, event or holding state changes.
 * Scans (admitted and refused) are also items in the ticket's partition, for the record.
 */
const ENTITY = 'Ticket';
const SEQUENCE = 'TICKET';
const MAX_OPTIMISTIC_RETRIES = 8;
const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

type Action = Parameters<typeof transactWrite>[0][number];

const toItem = (record: TicketRecord) => ({
  ...keys.ticket(record.id),
  ...(record.deleted ? {} : keys.ticketIndexes(record.eventId, record.typeId, record.id)),
  entity: ENTITY,
  // Filter attributes of the lists: 0 = unassigned team.
  teamKey: record.teamId ?? 0,
  ...record,
});

const fromItem = (item: Record<string, unknown>): TicketRecord => {
  const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, entity, teamKey, ...record } = item;
  return record as unknown as TicketRecord;
};

const notFound = (id: number) => new NotFound('Ticket', id);

/** Raw record (deleted ones included), strongly consistent; undefined when missing. */
export async function readTicketRecord(id: number): Promise<TicketRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticket(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

/** Raw records by id (deleted ones included), BatchGetItem in chunks of 100. For recounts and bulk reads. */
export async function readTicketRecords(ids: number[]): Promise<Map<number, TicketRecord>> {
  const found = new Map<number, TicketRecord>();
  const all = [...new Set(ids)].map((id) => keys.ticket(id));
  for (let start = 0; start < all.length; start += 100) {
    let pending: Record<string, unknown>[] | undefined = all.slice(start, start + 100);
    while (pending?.length) {
      const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of Responses?.[tableName()] ?? []) found.set(Number(item.id), fromItem(item));
      pending = UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return found;
}

async function present(records: TicketRecord[], include: readonly TicketInclude[]): Promise<Ticket[]> {
  const names = include.includes('checkInInfo') ? await eventTitles(records.flatMap(scannedEvents)) : new Map<number, string>();
  return records.map((record) => toTicket(record, include, names));
}

/** The ticket as `GET /tickets/{id}` answers it; 404 when missing or soft-deleted. */
export async function getTicket(id: number, include: TicketInclude[] = []): Promise<Ticket> {
  const record = await readTicketRecord(id);
  if (!record || record.deleted) throw notFound(id);
  const [ticket] = await present([record], include);
  return ticket!;
}

// ---- The one way a ticket changes ------------------------------------------------------

/** A ticket before (null: new) and after a change. */
export interface TicketChange {
  before: TicketRecord | null;
  after: TicketRecord;
}

/**
 * A ticket changed between read and write (or its transaction kept colliding): the caller
 * re-reads and decides again. Escaping the retries, it is a 409 the client may retry.
 */
class StaleTicket extends Conflict {
  constructor() {
    super('The ticket changed concurrently; retry the request.', 'concurrent_update');
  }
}

const holdsBib = (record: TicketRecord | null): record is TicketRecord =>
  !!record && !!record.bibNumber && record.deleted === 0 && record.transferState !== 'transferred';

/**
 * Writes the changes (and `extra` actions) in one transaction, keeping `sold`, the
 * statistics shards and bib uniqueness in step. Throws 409 `sold_out` / `bib_taken`, or
 * StaleTicket when a ticket's version moved.
 */
async function commitChanges(changes: TicketChange[], extra: Action[] = []): Promise<void> {
  const actions: Action[] = [];
  const roles: (['ticket', number] | ['type', number] | ['bib', string] | ['other'])[] = [];
  const stats = new StatsDelta();
  const soldByType = new Map<number, { eventId: number; delta: number }>();
  const moveSold = (record: TicketRecord, delta: number) => {
    const entry = soldByType.get(record.typeId) ?? { eventId: record.eventId, delta: 0 };
    entry.delta += delta;
    soldByType.set(record.typeId, entry);
    stats.sold(record.eventId, record.id, delta);
  };

  for (const { before, after } of changes) {
    const next = { ...after, version: (before?.version ?? 0) + 1 };
    actions.push({
      Put: {
        TableName: tableName(),
        Item: toItem(next),
        ...(before
          ? { ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': before.version } }
          : { ConditionExpression: 'attribute_not_exists(PK)' }),
      },
    });
    roles.push(['ticket', after.id]);
    if (before && isEligible(before)) moveSold(before, -1);
    if (isEligible(after)) moveSold(after, 1);
    stats.signature(after.id, before ? signatureOf(countedEvents(before)) : '', signatureOf(countedEvents(after)));
    if (before && !before.deleted) stats.listed(before.eventId, before.id, before.processState, -1);
    if (!after.deleted) stats.listed(after.eventId, after.id, after.processState, 1);

    const oldBib = holdsBib(before) ? keys.bib(before.eventId, before.bibNumber!) : undefined;
    const newBib = holdsBib(after) ? keys.bib(after.eventId, after.bibNumber!) : undefined;
    if (oldBib?.PK !== newBib?.PK) {
      if (oldBib) {
        actions.push({
          Delete: { TableName: tableName(), Key: oldBib, ConditionExpression: 'attribute_not_exists(PK) OR ticketId = :id', ExpressionAttributeValues: { ':id': after.id } },
        });
        roles.push(['other']);
      }
      if (newBib) {
        actions.push({
          Put: {
            TableName: tableName(),
            Item: { ...newBib, entity: 'UniqueBib', ticketId: after.id, eventId: after.eventId, bibNumber: after.bibNumber },
            ConditionExpression: 'attribute_not_exists(PK) OR ticketId = :id',
            ExpressionAttributeValues: { ':id': after.id },
          },
        });
        roles.push(['bib', after.bibNumber!]);
      }
    }
  }
  for (const [typeId, { eventId, delta }] of soldByType) {
    if (!delta) continue;
    if (delta > 1) throw new Error('A transaction may add at most one ticket to a ticket type.');
    actions.push({
      Update: {
        TableName: tableName(),
        Key: keys.ticketType(eventId, typeId),
        UpdateExpression: 'SET #sold = #sold + :delta',
        // Capacity: a rise needs room. A transaction adds at most one ticket to a type
        // (conditions cannot add, so `sold < total` is the check for +1).
        ConditionExpression: delta > 0 ? '#sold < #total' : 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#sold': 'sold', ...(delta > 0 ? { '#total': 'total' } : {}) },
        ExpressionAttributeValues: { ':delta': delta },
      },
    });
    roles.push(['type', typeId]);
  }
  for (const action of stats.actions()) {
    actions.push(action);
    roles.push(['other']);
  }
  for (const action of extra) {
    actions.push(action);
    roles.push(['other']);
  }

  try {
    await transactWrite(actions);
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    const failed = roles.filter((_, index) => error.conditionFailed(index));
    if (failed.some(([role]) => role === 'ticket')) throw new StaleTicket();
    // Still colliding after transactWrite's retries: decide again on a fresh read.
    if (!failed.length && error.reasons.some((reason) => reason.Code === 'TransactionConflict')) throw new StaleTicket();
    const type = failed.find(([role]) => role === 'type');
    if (type) throw new Conflict(`Ticket type ${type[1]} is sold out.`, 'sold_out');
    const bib = failed.find(([role]) => role === 'bib');
    if (bib) throw new Conflict(`Bib number ${bib[1]} is already taken in this event.`, 'bib_taken');
    throw error;
  }
}

/**
 * Reads the ticket, lets `decide` compute the change, commits it; retried on a concurrent
 * change. `decide` throws to refuse. A missing ticket is a 404; deleted ones reach `decide`.
 */
async function changeTicket<T>(
  id: number,
  decide: (record: TicketRecord) => Promise<{ changes: TicketChange[]; extra?: Action[]; result: T }> | { changes: TicketChange[]; extra?: Action[]; result: T },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const record = await readTicketRecord(id);
    if (!record) throw notFound(id);
    const { changes, extra, result } = await decide(record);
    try {
      if (changes.length || extra?.length) await commitChanges(changes, extra);
      return result;
    } catch (error) {
      if (!(error instanceof StaleTicket) || attempt >= MAX_OPTIMISTIC_RETRIES) throw error;
    }
  }
}

const notDeleted = (record: TicketRecord) => {
  if (record.deleted) throw notFound(record.id);
  return record;
};

// ---- State changes ---------------------------------------------------------------------

/** The state-bearing fields (the spec's states body). */
export interface StateChange {
  processState?: ProcessState;
  transferState?: TransferState;
  upgradeState?: UpgradeState;
  withdrawnState?: WithdrawnState;
  deleted?: 0 | 1;
}

/**
 * Applies a state change to a ticket, with `sold`, statistics and bib in the same
 * transaction. The one entry point for cancel, withdraw, delete and the states body.
 * Answers the ticket after the change (deleted ones included).
 */
export async function applyStateChange(id: number, change: StateChange): Promise<TicketRecord> {
  return changeTicket(id, (record) => {
    const after: TicketRecord = { ...record, ...stripUndefined(change), updated: now().toISOString() };
    if (after.processState !== PROCESS_STATE.checkedIn) after.checkIn = null;
    return { changes: [{ before: record, after }], result: { ...after, version: record.version + 1 } };
  });
}

const stripUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Soft delete: the record stays, marked deleted; it leaves lists (sparse indexes) and statistics. 404 when missing or already deleted. */
export async function deleteTicket(id: number): Promise<void> {
  await changeTicket(id, (record) => {
    notDeleted(record);
    return { changes: [{ before: record, after: { ...record, deleted: 1, updated: now().toISOString() } }], result: undefined };
  });
}

/** Soft-deletes each id on its own; answers per id `undefined` (deleted) or the error text. */
export async function deleteTickets(ids: number[]): Promise<Map<number, string | undefined>> {
  const outcome = new Map<number, string | undefined>();
  for (const id of [...new Set(ids)]) {
    try {
      await deleteTicket(id);
      outcome.set(id, undefined);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome.set(id, error.message);
    }
  }
  return outcome;
}

// ---- Updates ---------------------------------------------------------------------------

export type TicketPatch = Partial<TicketFields> & {
  eventId?: number;
  typeId?: number;
  processState?: ProcessState;
  withdrawnState?: WithdrawnState;
};

/** PATCH /tickets/{id}: writable fields; answers and team checked against the event; bib unique in the event (409). */
export async function updateTicket(id: number, patch: TicketPatch): Promise<Ticket> {
  const needsEvent = patch.attendeeQuestions !== undefined || (patch.teamId ?? 0) !== 0;
  return changeTicket(id, async (record) => {
    notDeleted(record);
    const problems: { path: string; message: string }[] = [];
    if (patch.eventId !== undefined && patch.eventId !== record.eventId) {
      problems.push({ path: 'body.data.eventId', message: 'The event changes only through POST /tickets/{id}/transfer.' });
    }
    if (patch.typeId !== undefined && patch.typeId !== record.typeId) {
      problems.push({ path: 'body.data.typeId', message: 'The ticket type changes only through POST /tickets/{id}/transfer.' });
    }
    if (needsEvent) {
      const details = await getEvent(record.eventId);
      if (patch.attendeeQuestions) problems.push(...answerProblems(details.questions, patch.attendeeQuestions, 'body.data.attendeeQuestions'));
      if (patch.teamId && !details.teams.some((team) => team.id === patch.teamId)) {
        problems.push({ path: 'body.data.teamId', message: `Team ${patch.teamId} is not a team of event ${record.eventId}.` });
      }
    }
    if (problems.length) throw new ValidationError('The ticket update is invalid.', problems);
    const { eventId, typeId, ...fields } = patch;
    const after: TicketRecord = { ...record, ...stripUndefined(fields), updated: now().toISOString() };
    if (patch.teamId === 0) after.teamId = null;
    if (after.processState !== PROCESS_STATE.checkedIn) after.checkIn = null;
    return { changes: [{ before: record, after }], result: toTicket({ ...after, version: record.version + 1 }) };
  });
}

/**
 * Sets or clears the profile photo URL of a live ticket in one conditional update;
 * answers the ticket and the URL it replaced (for the caller to remove the old object).
 */
export async function setProfilePhoto(id: number, url: string | null): Promise<{ ticket: Ticket; previous: string | null }> {
  const stamp = now().toISOString();
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.ticket(id),
        UpdateExpression: 'SET #photo = :url, #updated = :now, #version = #version + :one',
        ConditionExpression: 'attribute_exists(PK) AND #deleted = :zero',
        ExpressionAttributeNames: { '#photo': 'profilePhoto', '#updated': 'updated', '#version': 'version', '#deleted': 'deleted' },
        ExpressionAttributeValues: { ':url': url, ':now': stamp, ':one': 1, ':zero': 0 },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const before = fromItem(Attributes!);
    return { ticket: toTicket({ ...before, profilePhoto: url, updated: stamp, version: before.version + 1 }), previous: before.profilePhoto ?? null };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw notFound(id);
    throw error;
  }
}

// ---- Creation --------------------------------------------------------------------------

export interface NewTicket extends Partial<TicketFields> {
  typeId: number;
  orderId?: number | null;
  processState?: ProcessState;
  purchaser?: PurchaserContact | null;
  claim?: TicketRecord['claim'];
}

const newBarcode = () => randomBytes(9).toString('base64url').toUpperCase();

function blankRecord(id: number, eventId: number, typeId: number, accessEvents: number[], stamp: string): TicketRecord {
  return {
    id,
    eventId,
    typeId,
    orderId: null,
    teamId: null,
    barcode: newBarcode(),
    bibNumber: null,
    chipNumber: null,
    externalMembershipId: null,
    price: 0,
    taxAmount: 0,
    gratuityAmount: 0,
    paidUponCheckout: 0,
    partyMember: '',
    partyMemberLastName: '',
    emailAddress: null,
    partyMemberBirthMonth: null,
    partyMemberBirthDay: null,
    partyMemberBirthYear: null,
    partyMemberTitle: null,
    partyMemberCompany: null,
    attendeeQuestions: [],
    processState: PROCESS_STATE.active,
    transferState: 'none',
    upgradeState: 'none',
    withdrawnState: 'none',
    deleted: 0,
    profilePhoto: null,
    transferredFrom: null,
    transferredTo: null,
    created: stamp,
    updated: stamp,
    accessEvents,
    checkIn: null,
    accessScans: {},
    claim: null,
    refund: { status: 'none', amount: 0 },
    purchaserContact: null,
    version: 0,
  };
}

/** Issues a ticket of a type (a sale): `sold` rises in the same transaction, 409 `sold_out` when full. */
export async function createTicket(input: NewTicket): Promise<Ticket> {
  const type = await findTicketType(input.typeId);
  if (!type) throw new ValidationError(`Ticket type ${input.typeId} does not exist.`, [{ path: 'typeId', message: 'Unknown ticket type.' }]);
  const id = await allocateIds(SEQUENCE);
  const { purchaser, claim, typeId, ...fields } = input;
  const record: TicketRecord = {
    ...blankRecord(id, type.eventId, type.id, type.grants, now().toISOString()),
    price: type.price,
    ...stripUndefined(fields),
    purchaserContact: purchaser ?? null,
    claim: claim ?? null,
  };
  await commitChanges([{ before: null, after: record }]);
  return toTicket({ ...record, version: 1 });
}

// ---- Check-in --------------------------------------------------------------------------

export interface CheckInRequest {
  /** The event being scanned; defaults to the ticket's own event. */
  eventId?: number;
  adminId: number;
  /** `Idempotency-Key` header: a retry with the same key answers the first answer. */
  idempotencyKey?: string;
}

async function storedAnswer(adminId: number, key: string, ticketId: number): Promise<Ticket | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.idempotency(adminId, key), ConsistentRead: true }));
  if (!Item) return undefined;
  if (Item.ticketId !== ticketId) {
    throw new Conflict('This Idempotency-Key was already used for another ticket.', 'idempotency_key_reused');
  }
  return Item.answer as Ticket;
}

const scanItem = (ticketId: number, scan: { eventId: number; scannedTimestamp: string; adminId: number }, outcome: string) => ({
  ...keys.scanRecord(ticketId, scan.scannedTimestamp, randomUUID().slice(0, 8)),
  entity: 'Scan',
  ticketId,
  ...scan,
  outcome,
});

/**
 * Admits a ticket: one read, then one transaction that moves the ticket (conditional on
 * its version), records the scan, moves the statistics and stores the idempotent answer.
 * A refusal records the failed scan and answers 409 with a `reason`.
 */
export async function checkIn(id: number, request: CheckInRequest): Promise<Ticket> {
  const { adminId, idempotencyKey } = request;
  for (let attempt = 0; ; attempt++) {
    const record = await readTicketRecord(id);
    if (!record || record.deleted) throw notFound(id);
    const eventId = request.eventId ?? record.eventId;
    const scan = { eventId, scannedTimestamp: now().toISOString(), adminId };
    const decision = decideScan(record, eventId);
    if (!decision.admitted) {
      const first = idempotencyKey ? await storedAnswer(adminId, idempotencyKey, id) : undefined;
      if (first) return first;
      await db.send(new PutCommand({ TableName: tableName(), Item: scanItem(id, scan, decision.reason) }));
      throw new Conflict(`Ticket ${id} cannot be admitted: ${decision.reason.replaceAll('_', ' ')}.`, decision.reason, {
        ...(decision.firstScan ? { firstScannedTimestamp: decision.firstScan } : {}),
      });
    }
    const after = applyScan(record, decision.kind, scan);
    const answer = toTicket({ ...after, version: record.version + 1 });
    const extra: Action[] = [{ Put: { TableName: tableName(), Item: scanItem(id, scan, 'admitted') } }];
    if (idempotencyKey) {
      extra.push({
        Put: {
          TableName: tableName(),
          Item: { ...keys.idempotency(adminId, idempotencyKey), entity: 'IdempotentAnswer', ticketId: id, answer, expiresAt: epochSeconds() + IDEMPOTENCY_TTL_SECONDS },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      });
    }
    try {
      await commitChanges([{ before: record, after }], extra);
      return answer;
    } catch (error) {
      if (error instanceof StaleTicket && attempt < MAX_OPTIMISTIC_RETRIES) continue;
      if (error instanceof TransactionCancelled && idempotencyKey) {
        // The key was used by a concurrent request: answer what it answered.
        const first = await storedAnswer(adminId, idempotencyKey, id);
        if (first) return first;
      }
      throw error;
    }
  }
}

// ---- Transfer --------------------------------------------------------------------------

export interface AttendeeUpdate {
  partyMember?: string;
  partyMemberLastName?: string;
  emailAddress?: string | null;
  partyMemberBirthMonth?: number | null;
  partyMemberBirthDay?: number | null;
  partyMemberBirthYear?: number | null;
  partyMemberTitle?: string | null;
  partyMemberCompany?: string | null;
  attendeeQuestions?: AttendeeAnswer[];
}

export interface TransferRequest {
  eventId?: number;
  typeId?: number;
  attendee?: AttendeeUpdate;
}

/**
 * POST /tickets/{id}/transfer. A new event or type: one transaction creates the new
 * ticket (new id and barcode, active), marks the original transferred, moves `sold` from
 * the old type to the new (409 `sold_out` when full) and moves the statistics; answers
 * the new ticket. Neither changes: the attendee fields are updated in place.
 */
export async function transferTicket(id: number, request: TransferRequest): Promise<Ticket> {
  const target = request.typeId !== undefined ? await findTicketType(request.typeId) : undefined;
  if (request.typeId !== undefined && !target) {
    throw new ValidationError('Unknown ticket type.', [{ path: 'body.typeId', message: `Ticket type ${request.typeId} does not exist.` }]);
  }
  if (target && request.eventId !== undefined && target.eventId !== request.eventId) {
    throw new ValidationError('The ticket type is not of the event.', [
      { path: 'body.typeId', message: `Ticket type ${target.id} belongs to event ${target.eventId}, not ${request.eventId}.` },
    ]);
  }
  // Allocated alongside the ticket read (an unused id is harmless); marked handled so a
  // refusal before it is awaited does not leave a rejected promise behind.
  const newId = target ? allocateIds(SEQUENCE) : undefined;
  newId?.catch(() => undefined);
  return changeTicket(id, async (record) => {
    if (record.deleted) throw new Conflict(`Ticket ${id} is deleted.`, 'deleted');
    if (!target && request.eventId !== undefined && request.eventId !== record.eventId) {
      throw new ValidationError('A new event needs a ticket type.', [{ path: 'body.typeId', message: 'Required when eventId changes the event.' }]);
    }
    const moves = !!target && target.id !== record.typeId;
    const eventId = moves ? target.eventId : record.eventId;
    const attendee = stripUndefined(request.attendee ?? {});
    if (attendee.attendeeQuestions) {
      const problems = answerProblems((await getEvent(eventId)).questions, attendee.attendeeQuestions, 'body.attendee.attendeeQuestions');
      if (problems.length) throw new ValidationError('The attendee answers are invalid.', problems);
    }
    const stamp = now().toISOString();
    if (!moves) {
      if (record.transferState === 'transferred') throw new Conflict(`Ticket ${id} was transferred.`, 'transferred');
      const after = { ...record, ...attendee, updated: stamp };
      return { changes: [{ before: record, after }], result: toTicket({ ...after, version: record.version + 1 }) };
    }
    const refusal = transferRefusal(record);
    if (refusal) throw new Conflict(`Ticket ${id} cannot be transferred: ${refusal.replaceAll('_', ' ')}.`, refusal);
    const created: TicketRecord = {
      ...blankRecord(await newId!, eventId, target.id, target.grants, stamp),
      orderId: record.orderId,
      price: record.price,
      taxAmount: record.taxAmount,
      gratuityAmount: record.gratuityAmount,
      paidUponCheckout: record.paidUponCheckout,
      externalMembershipId: record.externalMembershipId,
      partyMember: record.partyMember,
      partyMemberLastName: record.partyMemberLastName,
      emailAddress: record.emailAddress,
      partyMemberBirthMonth: record.partyMemberBirthMonth,
      partyMemberBirthDay: record.partyMemberBirthDay,
      partyMemberBirthYear: record.partyMemberBirthYear,
      partyMemberTitle: record.partyMemberTitle,
      partyMemberCompany: record.partyMemberCompany,
      // Answers belong to the event's questions: kept only within the same event.
      attendeeQuestions: eventId === record.eventId ? record.attendeeQuestions : [],
      teamId: eventId === record.eventId ? record.teamId : null,
      profilePhoto: record.profilePhoto,
      processState: record.processState === PROCESS_STATE.pending ? PROCESS_STATE.pending : PROCESS_STATE.active,
      purchaserContact: record.purchaserContact,
      refund: record.refund,
      transferredFrom: record.id,
      ...attendee,
    };
    const original: TicketRecord = { ...record, transferState: 'transferred', transferredTo: created.id, updated: stamp };
    return {
      changes: [
        { before: record, after: original },
        { before: null, after: created },
      ],
      result: toTicket({ ...created, version: 1 }),
    };
  });
}

// ---- Lists -----------------------------------------------------------------------------

export interface TicketListQuery {
  events: number[];
  accessEvents: number[];
  teams?: number[];
  ticketTypes?: number[];
  excludeProcessStates?: number[];
  include: TicketInclude[];
  limit: number;
  offset: number;
}

/** Reads a list partition in id order until it is exhausted or `enough` tickets matched (undefined: all of it). */
const queryPartition = (
  index: 'GSI1' | 'GSI2',
  partition: string,
  filter: { expression?: string; names: Record<string, string>; values: Record<string, unknown> },
  enough: number | undefined,
) =>
  queryPages(
    {
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: `${index}PK = :pk`,
      ...(filter.expression ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
      ExpressionAttributeValues: { ':pk': partition, ...filter.values },
    },
    enough,
  );

/**
 * GET /tickets. Bounded by events: the tickets of each event of `events` (GSI1), and for
 * `accessEvents` also the tickets of every access-package type granting it (the event's
 * GRANT# items, then GSI2 per type). Teams, types and process states are filters on
 * those partitions. Ordered by id.
 *
 * A page needs the first offset+limit matches of each partition (merged, they hold the
 * first offset+limit of the union). `totalCount` comes from the events' maintained
 * `listed` counts when the only filter is `exclude_process_states`; with `teams`,
 * `ticket_types` or `accessEvents` the partitions are read to the end and the matches
 * counted (bounded by the named events, but proportional to their size).
 */
export async function listTickets(query: TicketListQuery): Promise<Page<Ticket>> {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const inList = (attribute: string, name: string, list: number[] | undefined, negate = false) => {
    if (!list?.length) return;
    names[`#${name}`] = attribute;
    const placeholders = list.map((value, i) => {
      values[`:${name}${i}`] = value;
      return `:${name}${i}`;
    });
    conditions.push(`${negate ? 'NOT ' : ''}#${name} IN (${placeholders.join(', ')})`);
  };
  inList('teamKey', 'team', query.teams);
  inList('typeId', 'type', query.ticketTypes);
  inList('processState', 'state', query.excludeProcessStates, true);
  const filter = { expression: conditions.length ? conditions.join(' AND ') : undefined, names, values };

  const counted = !query.accessEvents.length && !query.teams?.length && !query.ticketTypes?.length;
  const enough = counted ? query.offset + query.limit : undefined;
  const total = counted ? countListed(query.events, query.excludeProcessStates) : undefined;
  total?.catch(() => undefined); // awaited below; handled here in case a Query fails first
  const partitions: Promise<Record<string, unknown>[]>[] = [];
  for (const eventId of new Set([...query.events, ...query.accessEvents])) {
    partitions.push(queryPartition('GSI1', keys.eventTicketsIndex(eventId), filter, enough));
  }
  for (const eventId of new Set(query.accessEvents)) {
    const grants = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :grant)',
        ExpressionAttributeValues: { ':pk': keys.eventPartition(eventId), ':grant': 'GRANT#' },
      }),
    );
    for (const grant of grants.Items ?? []) partitions.push(queryPartition('GSI2', keys.typeTicketsIndex(Number(grant.typeId)), filter, enough));
  }
  const byId = new Map<number, TicketRecord>();
  for (const items of await Promise.all(partitions)) for (const item of items) byId.set(Number(item.id), fromItem(item));
  const matches = [...byId.values()].sort((a, b) => a.id - b.id);
  const page = matches.slice(query.offset, query.offset + query.limit);
  return {
    totalCount: total ? await total : matches.length,
    limit: query.limit,
    offset: query.offset,
    items: await present(page, query.include),
  };
}

export interface ScanRecord {
  eventId: number;
  scannedTimestamp: string;
  adminId: number;
  /** `admitted` or the refusal reason. */
  outcome: string;
}

/** Every scan of a ticket, admitted and refused, oldest first (the ticket's own partition). */
export async function listScans(ticketId: number): Promise<ScanRecord[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :scan)',
      ExpressionAttributeValues: { ':pk': keys.ticket(ticketId).PK, ':scan': 'SCAN#' },
    }),
  );
  return (Items ?? []).map((item) => ({
    eventId: Number(item.eventId),
    scannedTimestamp: String(item.scannedTimestamp),
    adminId: Number(item.adminId),
    outcome: String(item.outcome),
  }));
}
