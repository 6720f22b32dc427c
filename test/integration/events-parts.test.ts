import { beforeAll, describe, expect, it } from 'vitest';
import { getEvent } from '#shared/events/data/events';
import { commitPartChange } from '#shared/events/data/event-part-writes';
import { keys } from '#shared/data/keys';
import { STATS_SHARDS } from '#shared/tickets/data/stats-shards';
import { PROCESS_STATES } from '#shared/tickets/domain/ticket';
import { Conflict } from '#shared/errors';
import { filterCount } from '#shared/lists/ticket-stats';
import { EventResource } from '#shared/events/contract/event';
import { wholeEvent } from '#shared/events/use-cases/event-reads';
import { seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { customerToken } from '../support/tokens.ts';
import { countWrites } from '../support/dynamo-writes.ts';
import { BASE, createEventByApi, staff } from '../support/events.ts';

/** An event's parts one at a time over HTTP: waves, questions, waivers, teams; renames read at once, used parts kept. */
let token: string;
beforeAll(async () => {
  token = await staff();
});
const read = async (id: number) => EventResource.parse((await call('GET', `${BASE}/${id}`, { token })).body.data);
const actions = async (id: number) =>
  (await call('GET', `${BASE}/${id}/history`, { token })).body.data.map((entry: { action: string }) => entry.action);
const types = [{ name: 'Runner', price: 30, total: 100 }];

describe('wave times', () => {
  it('adds, edits and removes a wave, the portal reading the new name at once, each change in the history', async () => {
    const made = await createEventByApi({ ticketTypes: types });
    const added = await call('POST', `${BASE}/${made.id}/wave-times`, {
      token,
      body: { name: 'Wave A', startTime: '2400-06-01T09:00:00+01:00', capacity: 300, version: 1 },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const wave = added.body.data;
    expect(wave).toMatchObject({ name: 'Wave A', startTime: '2400-06-01T08:00:00.000Z', capacity: 300 });
    expect((await call('PATCH', `${BASE}/${made.id}`, { token, body: { published: true } })).status).toBe(200);
    const renamed = await call('PATCH', `${BASE}/${made.id}/wave-times/${wave.id}`, {
      token,
      body: { name: 'Wave A (elite)', version: 3 },
    });
    expect(renamed.status).toBe(200);
    const portal = await call('GET', `/api/v2/my-account/wave-time/${made.id}`, {
      token: await customerToken(unusedCustomerId()),
    });
    expect(portal.status).toBe(200);
    expect(JSON.stringify(portal.body)).toContain('Wave A (elite)');
    expect((await read(made.id)).waveTimes.map((entry) => entry.name)).toEqual(['Wave A (elite)']);
    const stale = await call('PATCH', `${BASE}/${made.id}/wave-times/${wave.id}`, {
      token,
      body: { capacity: 1, version: 1 },
    });
    expect(stale.body.reason).toBe('stale_version');
    expect((await call('DELETE', `${BASE}/${made.id}/wave-times/${wave.id}`, { token })).status).toBe(204);
    expect((await read(made.id)).waveTimes).toEqual([]);
    expect(await actions(made.id)).toEqual(['wave_deleted', 'wave_updated', 'published', 'wave_created', 'created']);
    expect((await call('DELETE', `${BASE}/${made.id}/wave-times/${wave.id}`, { token })).status).toBe(404);
  });

  it('keeps a wave a ticket has (409 in_use naming the count), writing nothing', async () => {
    const made = await createEventByApi({
      ticketTypes: types,
      waveTimes: [
        { name: 'Used', startTime: '2400-06-01T09:00:00Z', capacity: 10 },
        { name: 'Spare', startTime: '2400-06-01T10:00:00Z', capacity: 10 },
      ],
    });
    const [used, spare] = made.waveTimes;
    await seedTickets(await wholeEvent(await getEvent(made.id)), made.ticketTypes[0]!.id, 2, {
      waveTimeId: used!.id,
    });
    const { result, writes } = await countWrites(() =>
      call('DELETE', `${BASE}/${made.id}/wave-times/${used!.id}`, { token }),
    );
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ reason: 'in_use', tickets: 2 });
    expect(writes.items).toEqual([]);
    expect((await call('DELETE', `${BASE}/${made.id}/wave-times/${spare!.id}`, { token })).status).toBe(204);
    expect((await read(made.id)).waveTimes.map((wave) => wave.id)).toEqual([used!.id]);
  });

  it('refuses a removal whose wave a ticket took after the check, leaving everything as it was', async () => {
    const made = await createEventByApi({
      ticketTypes: types,
      waveTimes: [{ name: 'Raced', startTime: '2400-06-01T09:00:00Z', capacity: 10 }],
    });
    const wave = made.waveTimes[0]!;
    const before = await getEvent(made.id);
    // The checks the removal read as 0, then a ticket takes the wave before its transaction.
    await seedTickets(await wholeEvent(before), made.ticketTypes[0]!.id, 1, { waveTimeId: wave.id });
    const checks = Array.from({ length: STATS_SHARDS }, (_, shard) => ({
      check: keys.eventStats(made.id, shard),
      counters: PROCESS_STATES.map((state) => filterCount.wave(wave.id, state)),
      refusal: () => new Conflict('taken meanwhile', 'in_use'),
    }));
    const at = new Date().toISOString();
    const after = { ...before, version: (before.version ?? 1) + 1 };
    const change = { before, after, changes: {}, action: 'wave_deleted' as const, by: 1, at };
    const refused = await commitPartChange(change, [{ delete: keys.waveTime(made.id, wave.id) }, ...checks]).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ reason: 'in_use' });
    expect((await getEvent(made.id)).version).toBe(before.version);
    expect((await read(made.id)).waveTimes.map((entry) => entry.id)).toEqual([wave.id]);
    expect(await actions(made.id)).toEqual(['created']);
  });

  it('refuses bad input naming the field', async () => {
    const made = await createEventByApi();
    const bad = await call('POST', `${BASE}/${made.id}/wave-times`, {
      token,
      body: { name: 'X', startTime: 'tomorrow', capacity: -1 },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('startTime');
    const unknown = await call('PATCH', `${BASE}/${made.id}/wave-times/1`, { token, body: { colour: 'red' } });
    expect(unknown.status).toBe(400);
  });
});

describe('questions', () => {
  it('adds, edits and removes questions on a draft; keeps them once the event has tickets', async () => {
    const made = await createEventByApi({ ticketTypes: types, questions: [{ text: 'Club?' }] });
    const added = await call('POST', `${BASE}/${made.id}/questions`, {
      token,
      body: { text: 'T-shirt', required: true, options: [{ text: 'M' }, { text: 'L', sku: 'TS-L' }] },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const question = added.body.data;
    const [m, l] = question.options;
    const edited = await call('PATCH', `${BASE}/${made.id}/questions/${question.id}`, {
      token,
      body: { text: 'T-shirt size', options: [{ id: l.id, text: 'Large', sku: 'TS-L' }, { text: 'XL' }] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.options.map((option: { text: string }) => option.text)).toEqual(['Large', 'XL']);
    expect(edited.body.data.options[0].id).toBe(l.id);
    expect(edited.body.data.options.map((option: { id: number }) => option.id)).not.toContain(m.id);
    const foreign = await call('PATCH', `${BASE}/${made.id}/questions/${question.id}`, {
      token,
      body: { options: [{ id: 987654321, text: 'Z' }] },
    });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('body.options.0.id');
    expect((await read(made.id)).questions.map((entry) => entry.text)).toEqual(['Club?', 'T-shirt size']);
    // While no ticket could have answered it, a question is removed.
    const spare = await call('POST', `${BASE}/${made.id}/questions`, { token, body: { text: 'Spare?' } });
    expect(spare.status).toBe(201);
    expect((await call('DELETE', `${BASE}/${made.id}/questions/${spare.body.data.id}`, { token })).status).toBe(204);
    expect((await read(made.id)).questions.map((entry) => entry.text)).toEqual(['Club?', 'T-shirt size']);

    await seedTickets(await wholeEvent(await getEvent(made.id)), made.ticketTypes[0]!.id, 3);
    const kept = await call('DELETE', `${BASE}/${made.id}/questions/${made.questions[0]!.id}`, { token });
    expect(kept.status).toBe(409);
    expect(kept.body).toMatchObject({ reason: 'in_use', tickets: 3 });
    const dropOption = await call('PATCH', `${BASE}/${made.id}/questions/${question.id}`, {
      token,
      body: { options: [{ id: l.id, text: 'Large' }] },
    });
    expect(dropOption.status).toBe(409);
    const renamed = await call('PATCH', `${BASE}/${made.id}/questions/${made.questions[0]!.id}`, {
      token,
      body: { text: 'Running club?' },
    });
    expect(renamed.status).toBe(200);
    expect((await read(made.id)).questions.map((entry) => entry.text)).toEqual(['Running club?', 'T-shirt size']);
    expect(await actions(made.id)).toEqual([
      'question_updated',
      'question_deleted',
      'question_created',
      'question_updated',
      'question_created',
      'created',
    ]);
  });
  it('refuses a question the event item cannot hold (409 questions_too_large), keeping those it has', async () => {
    const made = await createEventByApi({ ticketTypes: types });
    // Two-byte characters at every length's limit: about 30 KB of JSON a question.
    const wide = (n: number) => 'é'.repeat(n);
    const options = Array.from({ length: 50 }, (_, i) => ({ text: `${i} ${wide(190)}`, sku: wide(100) }));
    const answers = [];
    for (let n = 0; n < 8; n++)
      answers.push(
        await call('POST', `${BASE}/${made.id}/questions`, { token, body: { text: `${n} ${wide(490)}`, options } }),
      );
    const added = answers.filter((answer) => answer.status === 201).length;
    expect(added).toBeGreaterThan(0);
    expect(answers.slice(added).map((answer) => [answer.status, answer.body.reason])).toEqual(
      Array.from({ length: 8 - added }, () => [409, 'questions_too_large']),
    );
    expect((await read(made.id)).questions).toHaveLength(added);
    const tooMany = await call('POST', BASE, {
      token,
      body: {
        title: 'Too many words',
        start: '2031-05-01T09:00:00Z',
        timezone: 'Europe/London',
        currency: 'EUR',
        questions: Array.from({ length: 8 }, (_, n) => ({ text: `${n} ${wide(490)}`, options })),
      },
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('body.questions');
  });
});

describe('waivers', () => {
  it('adds a waiver a ticket must sign, renames it (the ticket reads the new title) and keeps it while tickets must sign', async () => {
    const made = await createEventByApi({
      ticketTypes: [
        { name: 'Runner', price: 30, total: 100 },
        { name: 'Walker', price: 10, total: 100 },
      ],
    });
    const [runner, walker] = made.ticketTypes;
    const eventWide = await call('POST', `${BASE}/${made.id}/waivers`, {
      token,
      body: { title: 'Medical', text: 'I am fit.' },
    });
    expect(eventWide.status, JSON.stringify(eventWide.body)).toBe(201);
    const typeOnly = await call('POST', `${BASE}/${made.id}/waivers`, {
      token,
      body: { title: 'Walkers only', kind: 'day-of', ticketTypeId: walker!.id, text: 'Walk, do not run.' },
    });
    expect(typeOnly.status).toBe(201);
    const foreignType = await call('POST', `${BASE}/${made.id}/waivers`, {
      token,
      body: { title: 'X', ticketTypeId: 987654321, text: 'x' },
    });
    expect(foreignType.status).toBe(400);
    expect(JSON.stringify(foreignType.body)).toContain('body.ticketTypeId');

    const [ticket] = await seedTickets(await wholeEvent(await getEvent(made.id)), runner!.id, 1);
    const renamed = await call('PATCH', `${BASE}/${made.id}/waivers/${eventWide.body.data.id}`, {
      token,
      body: { title: 'Medical declaration', text: 'I am fit to run.' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.versionHash).not.toBe(eventWide.body.data.versionHash);
    const waivers = await call('GET', `/api/v2/tickets/${ticket!.id}/waivers`, { token });
    expect(waivers.status).toBe(200);
    expect(JSON.stringify(waivers.body)).toContain('Medical declaration');

    const kept = await call('DELETE', `${BASE}/${made.id}/waivers/${eventWide.body.data.id}`, { token });
    expect(kept.status).toBe(409);
    expect(kept.body).toMatchObject({ reason: 'in_use', tickets: 1 });
    // No walker holds a ticket: the walkers' waiver goes.
    expect((await call('DELETE', `${BASE}/${made.id}/waivers/${typeOnly.body.data.id}`, { token })).status).toBe(204);
    expect(await actions(made.id)).toEqual([
      'waiver_deleted',
      'waiver_updated',
      'waiver_created',
      'waiver_created',
      'created',
    ]);
  });
});

describe('teams', () => {
  it('removes a team no ticket names and keeps one that tickets name (409 in_use with the count)', async () => {
    const made = await createEventByApi({ ticketTypes: types, teams: [{ name: 'Harriers' }, { name: 'Owls' }] });
    const [used, spare] = made.teams;
    await seedTickets(await wholeEvent(await getEvent(made.id)), made.ticketTypes[0]!.id, 2, { teamId: used!.id });
    const kept = await call('DELETE', `${BASE}/${made.id}/teams/${used!.id}`, { token });
    expect(kept.status).toBe(409);
    expect(kept.body).toMatchObject({ reason: 'in_use', tickets: 2 });
    expect((await call('DELETE', `${BASE}/${made.id}/teams/${spare!.id}`, { token })).status).toBe(204);
    expect((await read(made.id)).teams.map((team) => team.name)).toEqual(['Harriers']);
    expect(await actions(made.id)).toEqual(['team_deleted', 'created']);
  });
});

describe('waivers at creation', () => {
  it('creates waivers with the event in its one transaction, for every ticket or one type, and reads them in the event', async () => {
    const made = await createEventByApi({
      ticketTypes: [
        { name: 'Runner', price: 30, total: 100 },
        { name: 'Walker', price: 10, total: 100 },
      ],
      waivers: [
        { title: 'Medical', text: 'I am fit.' },
        { title: 'Walkers', kind: 'day-of', text: 'Walk.', ticketTypeIndex: 1 },
      ],
    });
    expect(made.waivers.map(({ title, ticketTypeId, kind }) => ({ title, ticketTypeId, kind }))).toEqual([
      { title: 'Medical', ticketTypeId: null, kind: 'standard' },
      { title: 'Walkers', ticketTypeId: made.ticketTypes[1]!.id, kind: 'day-of' },
    ]);
    expect((await read(made.id)).waivers.map((waiver) => waiver.id).sort()).toEqual(
      made.waivers.map((waiver) => waiver.id).sort(),
    );
    const [ticket] = await seedTickets(await wholeEvent(await getEvent(made.id)), made.ticketTypes[1]!.id, 1);
    const waivers = await call('GET', `/api/v2/tickets/${ticket!.id}/waivers`, { token });
    expect(JSON.stringify(waivers.body)).toContain('Walkers');
    const bad = await call('POST', BASE, {
      token,
      body: {
        title: 'X',
        start: '2400-01-01T00:00:00Z',
        timezone: 'UTC',
        currency: 'EUR',
        waivers: [{ title: 'W', text: 'w', ticketTypeIndex: 0 }],
      },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('waivers');
  });
});
