import { beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '#shared/clock';
import { Conflict, ValidationError } from '#shared/errors';
import { acceptClaim } from '#shared/tickets/use-cases/accept-claim';
import { seedDemoClaims } from '../../bin/seed/claims.ts';
import { seedTickets } from '../support/factories/tickets.ts';
import * as claimHandler from '../../functions/ticket/claim.ts';
import * as claimInfoHandler from '../../functions/ticket/claim-info.ts';
import * as claimantHandler from '../../functions/ticket/claimant.ts';
import * as isAClaimHandler from '../../functions/ticket/is-a-claim.ts';
import * as getTicketHandler from '../../functions/tickets/get.ts';
import { call } from '../support/api.ts';
import { newCustomer, signedInCustomer, type TestCustomer } from '../support/customers.ts';
import { checkIn, oneTicket, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';
import { mailTo, newAddress, newestLinkToken } from '../support/mail.ts';
import { expectDeclared } from '../support/handlers.ts';
import { commandsSent } from '../support/command-tally.ts';
import { tightestLeft } from '../support/rate-limits.ts';

const TICKET = '/api/v2/ticket';
// Ids no other file signs in as: the staff claim-mail window is per sender, and a file running beside this one must not
// take slots in it meanwhile (a raced slot is read again: one more GetItem than the cost test counts).
const WRITER_ID = 646_001;
let writer: string;
let scanner: string;

beforeAll(async () => {
  writer = await adminToken(['tickets:read', 'tickets:write'], WRITER_ID);
  scanner = await adminToken(['checkin:scan', 'tickets:read'], 646_002);
});

const claim = (id: number, body: unknown) => call('POST', `${TICKET}/${id}/claim`, { token: writer, body });
const claimant = (id: number, body: unknown) => call('POST', `${TICKET}/${id}/claimant`, { token: writer, body });
const get = (path: string) => call('GET', `${TICKET}/${path}`, { token: writer });

/** The token of the newest claim link mailed to an address. */
const claimTokenFor = (address: string) => newestLinkToken(address, 'claim');

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('opening a claim', () => {
  it('mails the claimant a single-use link and the claim routes report it open', async () => {
    const { ticket } = await oneTicket();
    expect((await get(`${ticket.id}/is-a-claim`)).body).toEqual({ count: 1, data: false });
    expect((await get(`${ticket.id}/claim-info`)).body.data).toEqual({
      ticketId: ticket.id,
      isAClaim: false,
      isClaimed: false,
      state: null,
      claimantEmail: null,
      claimantUserId: null,
      sentAt: null,
      claimedAt: null,
    });

    const address = newAddress('claimant');
    const opened = await claim(ticket.id, { claimantEmail: address.toUpperCase(), claimantuserId: 'crm-77' });
    expectDeclared(claimHandler, opened);
    expect(opened.body.data).toMatchObject({
      ticketId: ticket.id,
      isAClaim: true,
      isClaimed: false,
      state: 'open',
      claimantEmail: address,
      claimantUserId: 'crm-77',
      claimedAt: null,
    });

    const [mail] = await mailTo(address);
    expect(mail!.body.text).toMatch(/\/claim#token=[A-Za-z0-9_-]{43}/);
    expect((await get(`${ticket.id}/is-a-claim`)).body).toEqual({ count: 1, data: true });
    expect((await get(`${ticket.id}/is-claimed`)).body).toEqual({ count: 1, data: false });
    const info = await get(`${ticket.id}/claim-info`);
    expectDeclared(claimInfoHandler, info);
    expect(info.body.data).toEqual(opened.body.data);
  });

  it('refuses a second claim while the first is open', async () => {
    const { ticket } = await oneTicket();
    expect((await claim(ticket.id, { claimantEmail: newAddress(), claimantuserId: '' })).status).toBe(200);
    const second = await claim(ticket.id, { claimantEmail: newAddress(), claimantuserId: '' });
    expect(second.status).toBe(409);
    expect(second.body.reason).toBe('claim_open');
  });

  it('refuses a claim on a cancelled, withdrawn, transferred, deleted or checked-in ticket, naming the reason', async () => {
    const { event } = await oneTicket();
    const [cancelled, withdrawn, transferred, deleted, checkedIn] = await seedTickets(
      event,
      event.ticketTypes[0]!.id,
      5,
    );
    expect(
      (await call('POST', `${TICKET}/${cancelled!.id}/states`, { token: writer, body: { processState: 4 } })).status,
    ).toBe(200);
    expect(
      (
        await call('PATCH', `${TICKETS}/${withdrawn!.id}`, {
          token: writer,
          body: { data: { withdrawnState: 'withdrawn' } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('POST', `${TICKETS}/${transferred!.id}/transfer`, {
          token: writer,
          body: { typeId: event.ticketTypes[1]!.id },
        })
      ).status,
    ).toBe(200);
    expect((await call('DELETE', `${TICKETS}/${deleted!.id}`, { token: writer })).status).toBe(204);
    expect((await checkIn(scanner, checkedIn!.id)).status).toBe(200);

    const expected = [
      [cancelled, 'cancelled'],
      [withdrawn, 'withdrawn'],
      [transferred, 'transferred'],
      [deleted, 'deleted'],
      [checkedIn, 'checked_in'],
    ] as const;
    for (const [ticket, reason] of expected) {
      const refused = await claim(ticket!.id, { claimantEmail: newAddress(), claimantuserId: 'x' });
      expect(refused.status, reason).toBe(409);
      expect(refused.body.reason).toBe(reason);
    }
  });

  it('answers 400 naming the field for bad bodies, and 404 for unknown or deleted tickets', async () => {
    const { ticket } = await oneTicket();
    const bad = [
      [{ claimantEmail: 'not-an-address', claimantuserId: '' }, 'body.claimantEmail'],
      [{ claimantEmail: `${'a'.repeat(250)}@x.io`, claimantuserId: '' }, 'body.claimantEmail'],
      [{ claimantEmail: newAddress() }, 'body.claimantuserId'],
      [{ claimantEmail: newAddress(), claimantuserId: 'u'.repeat(101) }, 'body.claimantuserId'],
      [{ claimantEmail: newAddress(), claimantuserId: 7 }, 'body.claimantuserId'],
    ] as const;
    for (const [body, field] of bad) {
      const refused = await claim(ticket.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors.map((error: { path: string }) => error.path)).toContain(field);
    }
    const extra = await claim(ticket.id, { claimantEmail: newAddress(), claimantuserId: '', colour: 'red' });
    expect(extra.status).toBe(400);
    expect((await claimant(ticket.id, {})).body.errors[0].path).toBe('body.claimantEmail');
    expect((await get('abc/is-claimed')).status).toBe(400);

    expect((await claim(999_999_999, { claimantEmail: newAddress(), claimantuserId: '' })).status).toBe(404);
    for (const path of ['is-a-claim', 'is-claimed', 'claim-info'])
      expect((await get(`999999999/${path}`)).status).toBe(404);
    await call('DELETE', `${TICKETS}/${ticket.id}`, { token: writer });
    expect((await get(`${ticket.id}/claim-info`)).status).toBe(404);
  });
});

describe('changing the claimant and accepting a claim', () => {
  it('sends a new link to the new claimant, voids the old one, and accepts the new one once', async () => {
    const { ticket } = await oneTicket();
    const first = newAddress('first');
    const second = newAddress('second');
    expect((await claimant(ticket.id, { claimantEmail: first })).body.reason).toBe('no_open_claim');
    await claim(ticket.id, { claimantEmail: first, claimantuserId: 'crm-1' });
    const oldToken = await claimTokenFor(first);

    const changed = await claimant(ticket.id, { claimantEmail: second });
    expectDeclared(claimantHandler, changed);
    expect(changed.body.data).toMatchObject({ state: 'open', claimantEmail: second, claimantUserId: 'crm-1' });
    const newToken = await claimTokenFor(second);
    expect(newToken).not.toBe(oldToken);

    const customer = await newCustomer();
    expect(await failureOf(acceptClaim(oldToken, customer.id))).toBeInstanceOf(ValidationError);
    const { claim: accepted } = await acceptClaim(newToken, customer.id);
    expect(accepted).toMatchObject({ ticketId: ticket.id, isClaimed: true, state: 'claimed', claimantEmail: second });
    const again = (await failureOf(acceptClaim(newToken, customer.id))) as ValidationError;
    expect(again.errors[0]!.path).toBe('body.token');

    expect((await get(`${ticket.id}/is-claimed`)).body.data).toBe(true);
    expect((await get(`${ticket.id}/claim-info`)).body.data.claimedAt).toBe(accepted.claimedAt);
    expect((await claim(ticket.id, { claimantEmail: newAddress(), claimantuserId: '' })).body.reason).toBe(
      'already_claimed',
    );
    expect((await claimant(ticket.id, { claimantEmail: newAddress() })).body.reason).toBe('no_open_claim');
  });

  it("moves the claimed ticket to the claimant's account and shows the claim and its actors in the ticket", async () => {
    const { ticket } = await oneTicket();
    const address = newAddress();
    await claim(ticket.id, { claimantEmail: address, claimantuserId: '' });
    const customer = await newCustomer();
    await acceptClaim(await claimTokenFor(address), customer.id);

    const read = await call('GET', `${TICKETS}/${ticket.id}?_include=change_status,history`, { token: writer });
    expectDeclared(getTicketHandler, read);
    const { customerId, ticketClaim, history } = read.body.data;
    expect(customerId).toBe(customer.id);
    expect(ticketClaim).toMatchObject({
      isAClaim: true,
      isClaimed: true,
      state: 'claimed',
      claimantEmail: address,
      claimedByCustomerId: customer.id,
    });
    expect(
      history.data.slice(0, 2).map((entry: { action: string; actor: string }) => [entry.action, entry.actor]),
    ).toEqual([
      ['claimed', `customer ${customer.id}`],
      ['claim', `admin ${WRITER_ID}`],
    ]);
    expect(history.data[0].fields).toEqual(['claim', 'customerId']);
  });

  it('shows an open claim as cancelled once its ticket is cancelled, and refuses its link with the reason', async () => {
    const { ticket } = await oneTicket();
    const address = newAddress();
    await claim(ticket.id, { claimantEmail: address, claimantuserId: '' });
    await call('POST', `${TICKET}/${ticket.id}/states`, { token: writer, body: { processState: 4 } });

    expect((await get(`${ticket.id}/claim-info`)).body.data).toMatchObject({ isAClaim: true, state: 'cancelled' });
    const refused = (await failureOf(acceptClaim(await claimTokenFor(address), (await newCustomer()).id))) as Conflict;
    expect(refused).toBeInstanceOf(Conflict);
    expect(refused.reason).toBe('cancelled');
  });

  it('refuses an expired link', async () => {
    const { ticket } = await oneTicket();
    const address = newAddress();
    await claim(ticket.id, { claimantEmail: address, claimantuserId: '' });
    const token = await claimTokenFor(address);
    advanceClock(15 * 24 * 3600 * 1000);
    try {
      expect(await failureOf(acceptClaim(token, 616_100))).toBeInstanceOf(ValidationError);
    } finally {
      resetClock();
    }
    expect((await get(`${ticket.id}/is-claimed`)).body.data).toBe(false);
  });

  it("declares is-a-claim's answer", async () => {
    const { ticket } = await oneTicket();
    expectDeclared(isAClaimHandler, await get(`${ticket.id}/is-a-claim`));
  });
});

describe('what a claim costs', () => {
  it('opens a claim with its two mail windows (the sender one remembered), one read and one transaction, reads it with one GetItem, and accepts it with two reads and one transaction', async () => {
    const { ticket } = await oneTicket();
    // The writer's session version is read once a container and kept (session-check.ts): read before counting, as
    // any earlier test would have (the tests run in any order).
    expect((await get(`${ticket.id}/is-claimed`)).status).toBe(200);
    // The writer's staff window counted last by this container, as any earlier claim of the file would have: its
    // attempt is written on the version this container wrote, unread (shared/data/rate-limits.ts).
    const other = (await oneTicket()).ticket;
    expect((await claim(other.id, { claimantEmail: newAddress(), claimantuserId: '' })).status).toBe(200);
    const address = newAddress();
    expect(await commandsSent(() => claim(ticket.id, { claimantEmail: address, claimantuserId: '' }))).toEqual([
      // The ticket's window, new: read, then written; the writer's, remembered: written.
      'GetItemCommand',
      'PutItemCommand',
      'PutItemCommand',
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    expect(await commandsSent(() => get(`${ticket.id}/claim-info`))).toEqual(['GetItemCommand']);
    const token = await claimTokenFor(address);
    const customer = await newCustomer();
    expect(await commandsSent(() => acceptClaim(token, customer.id))).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
  });
});

describe('POST /my-account/claim (a customer accepts a claim; our addition to the spec)', () => {
  const accept = (customer: TestCustomer, body: unknown) =>
    call('POST', '/api/v2/my-account/claim', { token: customer.token, body });
  const openFor = async (customer: TestCustomer) => {
    const { ticket } = await oneTicket();
    expect((await claim(ticket.id, { claimantEmail: customer.email, claimantuserId: 'friend-1' })).status).toBe(200);
    return { ticket, token: await claimTokenFor(customer.email) };
  };

  it('moves the ticket to the signed-in claimant and answers it; is-claimed, claim-info and the history say so', async () => {
    const friend = await signedInCustomer();
    const { ticket, token } = await openFor(friend);
    const accepted = await accept(friend, { token });
    expect(accepted.status, accepted.raw).toBe(200);
    expect(accepted.body.data).toMatchObject({ id: ticket.id, customerId: friend.id });
    expect((await get(`${ticket.id}/is-claimed`)).body.data).toBe(true);
    const info = (await get(`${ticket.id}/claim-info`)).body.data;
    expect(info).toMatchObject({ state: 'claimed', isClaimed: true, claimantEmail: friend.email });
    expect(info.claimedAt).toEqual(expect.any(String));
    const history = (await call('GET', `${TICKETS}/${ticket.id}?_include=history`, { token: writer })).body.data.history
      .data;
    expect(history[0]).toMatchObject({ action: 'claimed', actor: `customer ${friend.id}` });
  });

  it('refuses an unknown token (400 naming body.token), a replay (nothing changes), and a claim no longer open (409 with its reason)', async () => {
    const friend = await signedInCustomer();
    expect((await accept(friend, { token: 'no-such-token' })).body.errors[0].path).toBe('body.token');
    const { ticket, token } = await openFor(friend);
    expect((await accept(friend, { token })).status).toBe(200);
    const before = (await get(`${ticket.id}/claim-info`)).body.data;
    const replay = await accept(friend, { token });
    expect(replay.status).toBe(400);
    expect((await get(`${ticket.id}/claim-info`)).body.data).toEqual(before);

    const cancelled = await openFor(friend);
    expect(
      (await call('POST', `${TICKET}/${cancelled.ticket.id}/states`, { token: writer, body: { processState: 4 } }))
        .status,
    ).toBeLessThan(300);
    const refused = await accept(friend, { token: cancelled.token });
    expect(refused.status).toBe(409);
    expect(refused.body.reason ?? refused.body.error).toBe('cancelled');
  });

  it('lets exactly one of two customers racing on one token win; bad bodies are 400 and need a customer token', async () => {
    const [first, second] = await Promise.all([signedInCustomer(), signedInCustomer()]);
    const { ticket, token } = await openFor(first);
    const answers = await Promise.all([accept(first, { token }), accept(second, { token })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? first : second;
    expect((await call('GET', `${TICKETS}/${ticket.id}`, { token: writer })).body.data.customerId).toBe(winner.id);
    for (const body of [{}, { token: '' }, { token: 'x'.repeat(201) }, { token, extra: 1 }])
      expect((await accept(first, body)).status).toBe(400);
    // A staff token is not a customer's: the route answers as to no sign-in at all.
    expect((await call('POST', '/api/v2/my-account/claim', { token: writer, body: { token } })).status).toBe(401);
  });
});

describe('claim mail limits', () => {
  it('mails at most 5 claim or claimant links per ticket in 24 hours: the 6th is a 429 that changes nothing and mails nobody', async () => {
    const { ticket } = await oneTicket();
    const first = newAddress();
    const opened = await claim(ticket.id, { claimantEmail: first, claimantuserId: '' });
    expect(opened.status).toBe(200);
    const left = [tightestLeft(opened)];
    const addresses = [1, 2, 3, 4].map(() => newAddress());
    for (const address of addresses) {
      const mailed = await claimant(ticket.id, { claimantEmail: address });
      expect(mailed.status).toBe(200);
      left.push(tightestLeft(mailed));
    }
    // The client sees the refusal coming (RateLimit headers).
    expect(left).toEqual([4, 3, 2, 1, 0]);
    const before = (await get(`${ticket.id}/claim-info`)).body.data;
    const refused = newAddress();
    const sixth = await claimant(ticket.id, { claimantEmail: refused });
    expect(sixth.status).toBe(429);
    expect(tightestLeft(sixth)).toBe(0);
    expect(sixth.headers['retry-after']).toMatch(/^\d+$/);
    expect(sixth.body.detail).toMatch(/5 claim mails per ticket/);
    expect((await get(`${ticket.id}/claim-info`)).body.data).toEqual(before);
    expect(await mailTo(refused)).toEqual([]);
    // A day later the ticket may mail again.
    advanceClock(24 * 60 * 60 * 1000 + 1000);
    try {
      const later = await adminToken(['tickets:read', 'tickets:write'], WRITER_ID);
      expect(
        (await call('POST', `${TICKET}/${ticket.id}/claimant`, { token: later, body: { claimantEmail: refused } }))
          .status,
      ).toBe(200);
    } finally {
      resetClock();
    }
  });
});

describe('the demo claims', () => {
  it('seeds one claim in each state', async () => {
    const { event } = await oneTicket();
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 4);
    const customer = await newCustomer();
    const seeded = await seedDemoClaims(
      tickets.map((ticket) => ticket.id),
      customer,
    );

    const states = await Promise.all(
      Object.values(seeded).map(async (id) => (await get(`${id}/claim-info`)).body.data.state),
    );
    expect(states).toEqual(['open', 'open', 'claimed', 'cancelled']);
    expect((await get(`${seeded.reassigned}/claim-info`)).body.data.claimantEmail).toBe('second.claimant@example.test');
    expect((await call('GET', `${TICKETS}/${seeded.claimed}`, { token: writer })).body.data.customerId).toBe(
      customer.id,
    );
  });
});
