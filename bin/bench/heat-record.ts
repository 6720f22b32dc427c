import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/data/client';
import { currentFunction } from '../local/invoke.ts';
import { customersIn, eventsIn, type RecordedWrite } from './heat-figures.ts';
import { type Key, type PlannedWrite, plannedWrites } from './written-keys.ts';
import { type Item, indexWrites, priceWrite } from './write-pricing.ts';

/**
 * The heat bench's recorder: an SDK middleware on the one shared DocumentClient that every function of the local
 * stack writes through (the routes the local server runs, the stream consumers and jobs run in-process), so every
 * write the sale makes is seen, whatever path it takes. Each write command's items are read before and after it
 * (strongly consistent, by a client of its own) and priced by AWS's rules (write-pricing.ts). While recording, a
 * write command waits for the commands before it that write any of its items, so that two writes of one item never
 * mix their images (the run is slower for it, and its transactions meet no conflict, which changes no write a sale
 * makes). Only writes that succeeded are recorded (a refused one is counted in `refused`).
 */
export interface WriteRecorder {
  readonly writes: RecordedWrite[];
  /** Write commands refused (a condition failed, or a conflict): nothing written, not priced. */
  readonly refused: number;
  start(): void;
  stop(): void;
}

type Images = (Item | undefined)[];
let reader: DynamoDBDocumentClient | undefined;

async function stored(key: Key): Promise<Item | undefined> {
  reader ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const { Item } = await reader.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: key, ConsistentRead: true }),
  );
  return Item;
}

/** A command's writes, priced, tagged with the function, the event and the buyer its items tell. */
function priced(
  sent: { command: string; id: number; by: string; planned: PlannedWrite[]; before: Images; after: Images },
  known: readonly number[],
): RecordedWrite[] {
  const { command, id, by, planned, before, after } = sent;
  const one = (found: Set<number>) => (found.size === 1 ? [...found][0] : undefined);
  const event = one(eventsIn([...before, ...after], known));
  const customer = one(customersIn([...before, ...after]));
  return planned.map(({ key, transactional, conditionCheck }, n) => ({
    pk: key.PK,
    sk: key.SK,
    by,
    ...(event === undefined ? {} : { event }),
    ...(customer === undefined ? {} : { customer }),
    command: id,
    transactional,
    itemUnits: priceWrite('', command, transactional, before[n], after[n], conditionCheck).item,
    indexes: indexWrites(before[n], after[n], transactional, conditionCheck),
  }));
}

/** Records the writes of the events `known` (by their ids, to tell which event's sale made each) while started. */
export function recordWrites(known: readonly number[]): WriteRecorder {
  const writes: RecordedWrite[] = [];
  let recording = false;
  let refused = 0;
  let commands = 0;
  const lastOf = new Map<string, Promise<void>>();
  /** Runs `work` after every command before it that writes one of `keys`. */
  const afterOthersOf = async <T>(keys: readonly string[], work: () => Promise<T>): Promise<T> => {
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    // Queued on all its items at once (nothing awaits in between), so no two commands can wait for each other.
    const before = keys.map((key) => lastOf.get(key));
    for (const key of keys) lastOf.set(key, mine);
    await Promise.all(before);
    try {
      return await work();
    } finally {
      done();
      for (const key of keys) if (lastOf.get(key) === mine) lastOf.delete(key);
    }
  };

  const record = async <R>(command: string, input: Item, send: () => Promise<R>): Promise<R> => {
    const planned = plannedWrites(command, input);
    if (!recording || !planned.length) return send();
    const by = currentFunction() ?? 'outside a function';
    return afterOthersOf([...new Set(planned.map(({ key }) => `${key.PK}\u0000${key.SK}`))], async () => {
      const before = await Promise.all(planned.map(({ key }) => stored(key)));
      let result: R;
      try {
        result = await send();
      } catch (error) {
        refused++;
        throw error;
      }
      const after = await Promise.all(planned.map(({ key }) => stored(key)));
      writes.push(...priced({ command, id: ++commands, by, planned, before, after }, known));
      return result;
    });
  };

  db.middlewareStack.add(
    (next, context) => (args) =>
      record(String((context as { commandName?: string }).commandName), args.input as Item, () => next(args)),
    { step: 'initialize', name: 'heatBenchWrites' },
  );
  return {
    writes,
    get refused() {
      return refused;
    },
    start: () => {
      recording = true;
    },
    stop: () => {
      recording = false;
    },
  };
}
