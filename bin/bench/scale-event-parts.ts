import type { RunRow } from './scale-figures.ts';

/**
 * The events' part routes at each size: wave times, questions, waivers and teams, each added one by
 * one to an event of the size's own that has none (0 → 44), the first renamed (alternating names), then each removed
 * (44 → 0). The requests go through the handlers as every scale row's do (scale-events.ts `run`): what they send to
 * DynamoDB is counted from the calls themselves, never written out here.
 */
interface Part {
  /** The path segment under `/events/{id}/`. */
  path: string;
  /** Its path parameter's name, for the row's route. */
  param: string;
  create: (i: number, startTime: string) => Record<string, unknown>;
  rename: (i: number) => Record<string, unknown>;
}

const PARTS: Part[] = [
  {
    path: 'wave-times',
    param: 'waveId',
    create: (i, startTime) => ({ name: `Wave ${i}`, startTime, capacity: 100 }),
    rename: (i) => ({ name: `Wave renamed ${i % 2}` }),
  },
  {
    path: 'questions',
    param: 'questionId',
    create: (i) => ({ text: `Question ${i}`, options: [{ text: 'S' }, { text: 'M' }] }),
    rename: (i) => ({ text: `Question renamed ${i % 2}` }),
  },
  {
    path: 'waivers',
    param: 'waiverId',
    create: (i) => ({ title: `Waiver ${i}`, text: `I take part at my own risk (${i}).` }),
    rename: (i) => ({ title: `Waiver renamed ${i % 2}` }),
  },
  {
    path: 'teams',
    param: 'teamId',
    create: (i) => ({ name: `Team ${i}` }),
    rename: (i) => ({ name: `Team renamed ${i % 2}` }),
  },
];

export async function measureEventParts(run: RunRow, size: number, eventId: number, startTime: string): Promise<void> {
  const base = `/events/${eventId}`;
  for (const part of PARTS) {
    const ids: number[] = [];
    const collect = (body: unknown) => ids.push(Number((body as { data: { id: number } }).data.id));
    await run(
      `POST events/{id}/${part.path} (0 → 44)`,
      `POST /events/{id}/${part.path}`,
      size,
      (i) => ['POST', `${base}/${part.path}`, part.create(i, startTime)],
      collect,
    );
    await run(
      `PATCH events/{id}/${part.path}/{${part.param}} (a rename)`,
      `PATCH /events/{id}/${part.path}/{${part.param}}`,
      size,
      (i) => ['PATCH', `${base}/${part.path}/${ids[0]}`, part.rename(i)],
    );
    await run(
      `DELETE events/{id}/${part.path}/{${part.param}} (44 → 0)`,
      `DELETE /events/{id}/${part.path}/{${part.param}}`,
      size,
      (i) => ['DELETE', `${base}/${part.path}/${ids[i]}`],
    );
  }
}
