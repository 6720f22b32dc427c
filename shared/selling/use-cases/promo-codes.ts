import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { listTicketTypes } from '../../events/data/events.ts';
import {
  createPromoCode,
  deletePromoCode,
  getPromoCode,
  listPromoCodes,
  readAllUses,
  updatePromoCode,
} from '../data/promo-codes.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { type Event, saleCurrency } from '../../events/domain/event.ts';
import { amountProblem } from '../../domain/money.ts';
import type { Page } from '../../domain/paging.ts';
import { initialCaps, type PromoCode, recappedShards, type UsesShard, usesShardsFor } from '../domain/promo-code.ts';
import type { NewPromoCodeBody, PromoCodePatchBody, PromoCodeResource } from '../domain/promo-code-bodies.ts';
import { Conflict, type FieldProblem, NotFound, ValidationError } from '../../errors.ts';
import { eventFor, type Caller } from '../../events/use-cases/event-reads.ts';

/**
 * The promo-code routes (`/events/{id}/promo-codes`): an organiser's codes of one event, within their scope (another
 * scope's event is 404, as a missing one). A code is not part of the event's content: its edits move neither the
 * event's `version` nor its history (an open edit of the event stays valid), and record who made and last changed it.
 */

const usesOf = (shards: readonly UsesShard[]) => shards.reduce((sum, shard) => sum + shard.used, 0);

function toResource(promo: PromoCode, shards: readonly UsesShard[]): PromoCodeResource {
  const { usesShards: _shards, createdBy: _createdBy, updatedBy: _updatedBy, ...view } = promo;
  return { ...view, uses: usesOf(shards) };
}

/** The body's types are the event's, and its `amountOff` an amount of its currency (400 naming each field). */
async function checkAgainst(event: Event, body: { typeIds?: number[] | null; amountOff?: number }) {
  const problems: FieldProblem[] = [];
  if (body.typeIds) {
    const types = new Set((await listTicketTypes(event.id)).map((type) => type.id));
    body.typeIds.forEach((typeId, n) => {
      if (!types.has(typeId))
        problems.push({
          path: `body.typeIds.${n}`,
          message: `Ticket type ${typeId} is not a type of event ${event.id}.`,
        });
    });
  }
  const amount = body.amountOff === undefined ? undefined : amountProblem(body.amountOff, saleCurrency(event));
  if (amount) problems.push({ path: 'body.amountOff', message: amount });
  if (problems.length) throw new ValidationError('The promo code does not fit its event.', problems);
}

export async function createPromoCodeFor(caller: Caller, eventId: number, body: NewPromoCodeBody) {
  const event = await eventFor(caller, eventId);
  await checkAgainst(event, body);
  const at = now().toISOString();
  const maxUses = body.maxUses ?? null;
  const promo: PromoCode = {
    id: await allocateIds('PROMO_CODE'),
    eventId,
    code: body.code,
    percentOff: body.percentOff ?? null,
    amountOff: body.amountOff ?? null,
    typeIds: body.typeIds ? [...new Set(body.typeIds)] : null,
    maxUses,
    validFrom: body.validFrom ?? null,
    validUntil: body.validUntil ?? null,
    created: at,
    updated: at,
    createdBy: caller.id,
    updatedBy: caller.id,
    usesShards: usesShardsFor(maxUses),
  };
  await createPromoCode(promo, initialCaps(maxUses, promo.usesShards));
  return toResource(promo, []);
}

/** Every code of the event with its `uses` (its shards summed, strongly consistent), paged in the codes' order. */
export async function listPromoCodesFor(
  caller: Caller,
  eventId: number,
  page: { limit: number; offset: number },
): Promise<Page<PromoCodeResource>> {
  await eventFor(caller, eventId);
  const codes = await listPromoCodes(eventId);
  const shown = codes.slice(page.offset, page.offset + page.limit);
  const uses = await readAllUses(shown);
  return {
    totalCount: codes.length,
    limit: page.limit,
    offset: page.offset,
    items: shown.map((promo) => toResource(promo, uses.get(promo.id)!)),
  };
}

async function codeOf(caller: Caller, eventId: number, codeId: number) {
  const event = await eventFor(caller, eventId);
  const promo = await getPromoCode(eventId, codeId);
  if (!promo) throw new NotFound('Promo code', codeId);
  return { event, promo };
}

/** The code as changed: a lower `maxUses` than its uses taken now is 409 `max_uses_below_uses`. */
export async function updatePromoCodeFor(caller: Caller, eventId: number, codeId: number, body: PromoCodePatchBody) {
  await checkAgainst(await eventFor(caller, eventId), body);
  return readDecideWrite({
    subject: `Promo code ${codeId}`,
    read: async () => {
      const promo = await getPromoCode(eventId, codeId);
      if (!promo) throw new NotFound('Promo code', codeId);
      return { promo, shards: (await readAllUses([promo])).get(promo.id)! };
    },
    decide: ({ promo, shards }) => {
      const after = changed(promo, body, caller);
      const limitMoved = body.maxUses !== undefined && body.maxUses !== promo.maxUses;
      const caps = limitMoved ? recappedShards(shards, after.usesShards, after.maxUses) : undefined;
      if (limitMoved && !caps)
        throw new Conflict(
          `Promo code ${promo.code} is used ${usesOf(shards)} times: maxUses cannot go below that.`,
          'max_uses_below_uses',
          { uses: usesOf(shards) },
        );
      return { write: () => updatePromoCode(promo, after, caps), answer: toResource(after, shards) };
    },
  });
}

/** The code with the patch's fields (a discount of one kind replaces the other), its shards grown to its new limit. */
function changed(promo: PromoCode, body: PromoCodePatchBody, caller: Caller): PromoCode {
  const next: PromoCode = { ...promo, updated: now().toISOString(), updatedBy: caller.id };
  if (body.percentOff !== undefined) Object.assign(next, { percentOff: body.percentOff, amountOff: null });
  if (body.amountOff !== undefined) Object.assign(next, { amountOff: body.amountOff, percentOff: null });
  if (body.typeIds !== undefined) next.typeIds = body.typeIds && [...new Set(body.typeIds)];
  if (body.validFrom !== undefined) next.validFrom = body.validFrom;
  if (body.validUntil !== undefined) next.validUntil = body.validUntil;
  if (next.validFrom && next.validUntil && next.validUntil <= next.validFrom)
    throw new ValidationError('The promo code does not fit its event.', [
      { path: 'body.validUntil', message: 'must be after validFrom' },
    ]);
  if (body.maxUses !== undefined) {
    next.maxUses = body.maxUses;
    next.usesShards = Math.max(promo.usesShards, usesShardsFor(body.maxUses));
  }
  return next;
}

/** Deleted with its shards; one whose uses are taken (held, or kept by a paid order) stays: 409 `promo_code_in_use`. */
export async function deletePromoCodeFor(caller: Caller, eventId: number, codeId: number): Promise<void> {
  const { promo } = await codeOf(caller, eventId, codeId);
  await deletePromoCode(promo);
}
