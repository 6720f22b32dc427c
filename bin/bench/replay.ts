import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  type InitiateAuthCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchGetCommandInput,
  type BatchWriteCommandInput,
  type DeleteCommandInput,
  type GetCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
  type ScanCommandInput,
  type TransactGetCommandInput,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { InitializeMiddleware } from '@smithy/types';
import { db } from '#shared/data/client';
import { identitySdkClient } from '#shared/identity/services/identity-provider';
import { TABLE_NAME, TWIN_TABLE_NAME } from './settings.ts';

/**
 * A route's floor, measured rather than written: the DynamoDB (and Cognito) commands its
 * handler sent during one request are recorded (input, outcome, which commands had answered
 * before each was sent), then replayed bare on plain SDK clients, in the same order and
 * with the same parallelism, against a twin of the table. The twin receives every write the
 * bench makes outside a recording (fixtures, seeds) and each recording's replay, so before
 * a replay it holds what the table held before the recorded request: every condition, id
 * allocation and read answers the same. A replay whose outcome differs throws.
 */
type Service = 'dynamodb' | 'cognito';
export interface SentCommand {
  service: Service;
  /** Without `Command`: `GetItem`, `InitiateAuth`... */
  name: string;
  input: object;
  /** The commands (by index) that had answered before this one was sent: the replay waits for them. */
  after: number[];
  failed: boolean;
  /** What it answered, in counts (items, attributes): the replay must answer the same. */
  answered: string;
  /** The items it answered (an Item, Items, a batch's Responses). */
  items: number;
}
export type Recording = SentCommand[];

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

const plainDb = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});
let plainCognito: CognitoIdentityProviderClient | undefined;

/** The twin's copy of a DynamoDB input: its table names (top level, per transaction action, per batch) renamed. */
function onTwin(input: object): object {
  const rename = (name: unknown) => (name === TABLE_NAME ? TWIN_TABLE_NAME : name);
  const copy: Record<string, unknown> = { ...input };
  if ('TableName' in copy) copy.TableName = rename(copy.TableName);
  if (copy.RequestItems)
    copy.RequestItems = Object.fromEntries(
      Object.entries(copy.RequestItems).map(([table, request]) => [rename(table), request]),
    );
  if (Array.isArray(copy.TransactItems))
    copy.TransactItems = copy.TransactItems.map((action: Record<string, { TableName?: string }>) =>
      Object.fromEntries(
        Object.entries(action).map(([kind, body]) => [kind, { ...body, TableName: rename(body.TableName) }]),
      ),
    );
  return copy;
}

/** Sends one command bare: the twin's copy on the plain DocumentClient, or on a plain Cognito client. */
function sender({ service, name, input }: Pick<SentCommand, 'service' | 'name' | 'input'>): () => Promise<object> {
  if (service === 'cognito') {
    if (name !== 'InitiateAuth') throw new Error(`bench replay: no Cognito ${name} yet (bin/bench/replay.ts).`);
    plainCognito ??= new CognitoIdentityProviderClient({});
    const command = new InitiateAuthCommand(input as InitiateAuthCommandInput);
    return () => plainCognito!.send(command);
  }
  const twin = onTwin(input);
  const documentCommand = {
    GetItem: () => new GetCommand(twin as GetCommandInput),
    PutItem: () => new PutCommand(twin as PutCommandInput),
    UpdateItem: () => new UpdateCommand(twin as UpdateCommandInput),
    DeleteItem: () => new DeleteCommand(twin as DeleteCommandInput),
    Query: () => new QueryCommand(twin as QueryCommandInput),
    Scan: () => new ScanCommand(twin as ScanCommandInput),
    BatchGetItem: () => new BatchGetCommand(twin as BatchGetCommandInput),
    BatchWriteItem: () => new BatchWriteCommand(twin as BatchWriteCommandInput),
    TransactGetItems: () => new TransactGetCommand(twin as TransactGetCommandInput),
    TransactWriteItems: () => new TransactWriteCommand(twin as TransactWriteCommandInput),
  }[name];
  if (!documentCommand) throw new Error(`bench replay: no DynamoDB ${name} (bin/bench/replay.ts).`);
  // One command object per send, built here so that building it stays outside the timed replay.
  const command = documentCommand();
  return () => plainDb.send(command as Parameters<typeof plainDb.send>[0]);
}

/** An answer in counts: enough to tell that the twin answered what the table did, and the items it holds. */
function answered(output: unknown): { answered: string; items: number } {
  const { Item, Items, Attributes, Responses } = (output ?? {}) as {
    Item?: unknown;
    Items?: unknown[];
    Attributes?: unknown;
    Responses?: Record<string, unknown[]> | unknown[];
  };
  const responses = Array.isArray(Responses)
    ? Responses.length
    : Object.values(Responses ?? {}).reduce((sum, list) => sum + list.length, 0);
  return {
    answered: [Item ? 1 : 0, Items?.length ?? '-', Attributes ? 1 : 0, responses].join(','),
    items: (Item ? 1 : 0) + (Items?.length ?? 0) + responses,
  };
}

let current: { commands: Recording; done: Set<number> } | undefined;

function recorder<I extends object, O extends object>(service: Service): InitializeMiddleware<I, O> {
  return (next, context) => async (args) => {
    const name = (context.commandName ?? '?').replace(/Command$/, '');
    const recording = current;
    if (!recording) {
      if (service !== 'dynamodb' || !WRITES.has(name)) return next(args);
      // Outside a recording every write goes to the twin too, with the same outcome.
      const twin = sender({ service, name, input: args.input });
      try {
        const result = await next(args);
        await twin();
        return result;
      } catch (error) {
        await twin().catch(() => undefined);
        throw error;
      }
    }
    const index = recording.commands.length;
    const sent: SentCommand = {
      service,
      name,
      input: args.input,
      after: [...recording.done],
      failed: false,
      answered: '',
      items: 0,
    };
    recording.commands.push(sent);
    try {
      const result = await next(args);
      Object.assign(sent, answered(result.output));
      return result;
    } catch (error) {
      sent.failed = true;
      throw error;
    } finally {
      recording.done.add(index);
    }
  };
}

let installed = false;
/** Installs the recorder on the table's client and the identity provider's; from then on the twin follows the table. */
export function installRecorder(): void {
  if (installed) return;
  installed = true;
  db.middlewareStack.add(recorder('dynamodb'), { step: 'initialize', name: 'benchRecorder' });
  identitySdkClient().middlewareStack.add(recorder('cognito'), { step: 'initialize', name: 'benchRecorder' });
}

/** Runs `work` and answers the commands it sent. Recordings must not overlap. */
export async function recorded<R>(work: () => Promise<R>): Promise<{ result: R; commands: Recording }> {
  if (current) throw new Error('bench: recordings must not overlap.');
  current = { commands: [], done: new Set() };
  const { commands } = current;
  try {
    return { result: await work(), commands };
  } finally {
    current = undefined;
  }
}

/**
 * The recording's replay, ready to run: `run()` sends every command as it was sent (each
 * once the commands it followed have answered) and answers the ms it took; `check()`
 * then throws if the twin answered anything differently.
 */
export function replay(commands: Recording): { run: () => Promise<number>; check: () => void } {
  const sends = commands.map(sender);
  // Answers kept as they came: counting them is left until after the timed section.
  const outcomes: { failed: boolean; output?: object }[] = [];
  return {
    run: async () => {
      const start = performance.now();
      const sent: Promise<void>[] = [];
      commands.forEach((command, k) => {
        sent[k] = Promise.all(command.after.map((j) => sent[j])).then(async () => {
          try {
            outcomes[k] = { failed: false, output: await sends[k]!() };
          } catch {
            outcomes[k] = { failed: true };
          }
        });
      });
      await Promise.all(sent);
      return performance.now() - start;
    },
    check: () =>
      commands.forEach((command, k) => {
        const outcome = outcomes[k]!;
        const twin = outcome.failed ? 'an error' : answered(outcome.output).answered;
        if (twin !== (command.failed ? 'an error' : command.answered))
          throw new Error(
            `bench replay: ${command.name} #${k} answered ${twin} on the twin, ${command.failed ? 'an error' : command.answered} on the table.`,
          );
      }),
  };
}
