import { labelled, tableName, TransactionCancelled } from '../../data/client.ts';
import { commit, eventAtVersion, historyPut, type EventChange } from './event-admin-writes.ts';

/**
 * The writes of an event's parts (teams, waves, questions on the event item, waivers): each
 * change one transaction with the event item at the version read and its history entry,
 * and, for a removal, checks that the counters of the tickets using the part are still 0.
 */
/** One item of the event's partition written (a put, conditional on its presence as named) or deleted. */
export type PartWrite =
  | {
      put: Record<string, unknown>;
      /** Conditional on the item's presence (true) or absence (false); omitted: unconditional (a content-named item). */
      existing?: boolean;
    }
  | { delete: { PK: string; SK: string } }
  | UsageCheck;

/** That an item (a statistics shard) still holds none of the named counters: what keeps a part in use from going. */
export interface UsageCheck {
  check: { PK: string; SK: string };
  /** The counters, each absent or 0; a name with a dot is a map's entry (`listed.<state>`). */
  counters: readonly string[];
  /** The refusal when one moved between the read and the write. */
  refusal: () => Error;
}

function checkAction(part: UsageCheck) {
  const names: Record<string, string> = {};
  const terms = part.counters.map((counter, i) => {
    const path = counter.split('.').map((segment, j) => {
      names[`#c${i}_${j}`] = segment;
      return `#c${i}_${j}`;
    });
    const attribute = path.join('.');
    return `(attribute_not_exists(${attribute}) OR ${attribute} = :zero)`;
  });
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: part.check,
      ConditionExpression: terms.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':zero': 0 },
    },
  };
}

/**
 * A change of the event's parts (a team, a wave, a waiver and its version) with the
 * event's version and history: one transaction, so a refusal anywhere leaves nothing.
 */
export async function commitPartChange(change: EventChange, parts: readonly PartWrite[]): Promise<void> {
  const actions = [
    eventAtVersion(change),
    ...parts.map((part, n) =>
      'check' in part
        ? labelled(usageLabel(n), checkAction(part))
        : 'put' in part
          ? {
              Put: {
                TableName: tableName(),
                Item: part.put,
                ConditionExpression: part.existing ? 'attribute_exists(PK)' : 'attribute_not_exists(PK)',
              },
            }
          : {
              Delete: { TableName: tableName(), Key: part.delete, ConditionExpression: 'attribute_exists(PK)' },
            },
    ),
    historyPut(change),
  ];
  try {
    await commit(change.before.id, actions);
  } catch (error) {
    const moved = parts.find(
      (part, n): part is UsageCheck =>
        'check' in part && error instanceof TransactionCancelled && error.conditionFailed(usageLabel(n)),
    );
    if (moved) throw moved.refusal();
    throw error;
  }
}

/** The label of the `n`th part's usage check (client.ts `labelled`). */
const usageLabel = (n: number) => `usage check ${n}`;
