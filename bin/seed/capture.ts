import { db } from '#shared/data/client';

/**
 * The bulk seed writes exactly what the write path writes, without its transactions: the
 * repository's own commit functions (commitTicketChanges, commitNewOrder, insertCustomer)
 * run as usual, but while `capture` runs, every TransactWriteItems on the shared client is
 * taken off the wire and handed to a `WriteSet` instead. Puts become batch writes; the
 * counter Updates (statistics shards, `sold`, per-filter counts, order counts) are summed
 * in memory and applied once at the end. So whatever items or counters the write path
 * adds later, the seed writes them too, with no copy of the item shapes here.
 *
 * Conditions are dropped: ids come from the sequences (fresh), barcodes are random and
 * bibs are derived from ticket ids, and capacity is checked before seeding.
 */
type Value = unknown;
type Key = Record<string, Value>;
type Action = {
  Put?: { Item: Record<string, Value> };
  Delete?: { Key: Key };
  Update?: UpdateAction;
  ConditionCheck?: unknown;
};
interface UpdateAction {
  Key: Key;
  UpdateExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, Value>;
}

let sink: ((actions: Action[]) => void) | undefined;

db.middlewareStack.add(
  (next, context) => async (args) => {
    if (sink && /^TransactWrite(Items)?Command$/.test(context.commandName ?? '')) {
      sink(((args.input as { TransactItems?: Action[] }).TransactItems ?? []) as Action[]);
      return { output: { $metadata: {} }, response: {} } as never;
    }
    return next(args);
  },
  { step: 'initialize', name: 'seedTransactionCapture' },
);

/** Runs `work` with its transactions captured into `into` (the seed is one process, so a module-level sink is enough). */
export async function capture<T>(into: WriteSet, work: () => Promise<T>): Promise<T> {
  sink = (actions) => into.add(actions);
  try {
    return await work();
  } finally {
    sink = undefined;
  }
}

const keyOf = (key: Key) => `${String(key.PK)}|${String(key.SK)}`;

/** A counter item's summed moves: paths (as name lists) to the number added, and plain values set. */
interface CounterMoves {
  key: Key;
  adds: Map<string, { path: string[]; delta: number }>;
  sets: Map<string, { path: string[]; value: Value }>;
}

/** Splits at top-level commas (none of the write path's expressions nest commas outside parentheses). */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

export class WriteSet {
  /** Items to put (or null: to delete), by key; a later action on a key replaces an earlier one. */
  readonly items = new Map<string, Record<string, Value> | { deleteKey: Key }>();
  readonly counters = new Map<string, CounterMoves>();

  add(actions: Action[]): void {
    for (const action of actions) {
      if (action.Put) this.items.set(keyOf(action.Put.Item), action.Put.Item);
      else if (action.Delete) this.items.set(keyOf(action.Delete.Key), { deleteKey: action.Delete.Key });
      else if (action.Update) this.update(action.Update);
    }
  }

  /** Takes the items gathered so far (the counters stay until `counterUpdates`). */
  drainItems(): { puts: Record<string, Value>[]; deletes: Key[] } {
    const puts: Record<string, Value>[] = [];
    const deletes: Key[] = [];
    for (const item of this.items.values()) {
      if ('deleteKey' in item) deletes.push(item.deleteKey as Key);
      else puts.push(item);
    }
    this.items.clear();
    return { puts, deletes };
  }

  /**
   * The forms the write path uses: `SET p = :v`, `SET p = p + :v`,
   * `SET p = if_not_exists(p, :zero) + :v` and `ADD p :v`; anything else is refused loudly
   * (a new form needs a line here, not a silently wrong count).
   */
  private update({
    Key: key,
    UpdateExpression,
    ExpressionAttributeNames: names = {},
    ExpressionAttributeValues: values = {},
  }: UpdateAction): void {
    const id = keyOf(key);
    const moves = this.counters.get(id) ?? { key, adds: new Map(), sets: new Map() };
    this.counters.set(id, moves);
    const path = (text: string) =>
      text
        .trim()
        .split('.')
        .map((part) => names[part] ?? part);
    const value = (name: string) => {
      if (!(name in values)) throw new Error(`seed: unknown value ${name} in "${UpdateExpression}"`);
      return values[name];
    };
    const addTo = (target: string[], delta: Value) => {
      const slot = moves.adds.get(target.join('\u0000')) ?? { path: target, delta: 0 };
      slot.delta += Number(delta);
      moves.adds.set(target.join('\u0000'), slot);
    };
    for (const clause of UpdateExpression.split(/\b(?=SET |ADD |REMOVE |DELETE )/)) {
      const [verb, ...rest] = clause.trim().split(' ');
      const body = rest.join(' ');
      if (verb === 'ADD') {
        for (const part of splitTop(body)) {
          const [name, val] = part.split(/\s+/);
          addTo(path(name!), value(val!));
        }
      } else if (verb === 'SET') {
        for (const part of splitTop(body)) {
          const [left, right] = part.split('=').map((side) => side.trim()) as [string, string];
          const sum = /^(?:if_not_exists\(\s*([^,]+),\s*:\w+\s*\)|([#\w.]+))\s*\+\s*(:\w+)$/.exec(right);
          if (sum) addTo(path(left), value(sum[3]!));
          else if (/^:\w+$/.test(right))
            moves.sets.set(path(left).join('\u0000'), { path: path(left), value: value(right) });
          else throw new Error(`seed: cannot sum "${part}" of "${UpdateExpression}"`);
        }
      } else {
        throw new Error(`seed: cannot sum a ${verb} clause ("${UpdateExpression}")`);
      }
    }
  }

  /**
   * One or more UpdateItem inputs per counter item: each summed path becomes
   * `if_not_exists(p, 0) + total` (so seeding into an existing event adds to its counts),
   * in chunks that keep an expression well under DynamoDB's limits.
   */
  counterUpdates(tableName: string, chunk = 40): (UpdateAction & { TableName: string })[] {
    const updates: (UpdateAction & { TableName: string })[] = [];
    for (const { key, adds, sets } of this.counters.values()) {
      const moves = [
        ...[...sets.values()].map((set) => ({ path: set.path, value: set.value, add: false })),
        ...[...adds.values()]
          .filter((add) => add.delta !== 0)
          .map((add) => ({ path: add.path, value: add.delta, add: true })),
      ];
      for (let start = 0; start < moves.length; start += chunk) {
        const names: Record<string, string> = {};
        const values: Record<string, Value> = { ':zero': 0 };
        const parts = moves.slice(start, start + chunk).map((move, i) => {
          const path = move.path
            .map((name, j) => {
              names[`#n${i}_${j}`] = name;
              return `#n${i}_${j}`;
            })
            .join('.');
          values[`:v${i}`] = move.value;
          return move.add ? `${path} = if_not_exists(${path}, :zero) + :v${i}` : `${path} = :v${i}`;
        });
        updates.push({
          TableName: tableName,
          Key: key,
          UpdateExpression: `SET ${parts.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        });
      }
    }
    return updates;
  }
}
