/**
 * `npm run webhooks:replay -- --stage <name> [--dry-run] [--region <r>]`: the repair after the
 * `webhook-stream-given-up` alarm (README "Webhooks"), once its cause is fixed and within 24 hours
 * of the changes. For each message of the stage's on-failure queue (the consumer's stream mapping names it):
 * read the batch it points to from the table's stream, hand it to the stage's consumer
 * (`Ticketing-<stage>-webhook-ticket-changes`, as the mapping would), and delete the message once
 * every change is recorded. A message whose changes still fail is left in the queue (visible again
 * in 15 minutes) and named. `--dry-run` reads and counts, invokes nothing and deletes nothing.
 *
 * Needs lambda:ListEventSourceMappings on the consumer, sqs:GetQueueUrl, ReceiveMessage, DeleteMessage and ChangeMessageVisibility on the queue,
 * dynamodb:GetShardIterator and GetRecords on the table's stream, lambda:InvokeFunction on the consumer.
 */
import { parseArgs } from 'node:util';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, LambdaClient, ListEventSourceMappingsCommand } from '@aws-sdk/client-lambda';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { ticketChangesFunctionName } from '../infra/webhooks.ts';
import { failedBatchOf, readFailedBatch, replayChanges } from './maintenance/replay-ticket-changes.ts';

const usage = 'usage: npm run webhooks:replay -- --stage <name> [--dry-run] [--region <region>]';
const { values } = parseArgs({
  options: { stage: { type: 'string' }, 'dry-run': { type: 'boolean' }, region: { type: 'string' } },
});
if (!values.stage) {
  console.error(usage);
  process.exit(2);
}
const stage = values.stage;
const dryRun = values['dry-run'] ?? false;
const region = values.region ? { region: values.region } : {};
const sqs = new SQSClient(region);
const streams = new DynamoDBStreamsClient(region);
const lambda = new LambdaClient(region);

/** Messages taken per run: the queue can be emptied by running again; a run stays minutes long. */
const MAX_MESSAGES = 200;
/** Long enough to read a batch and replay it; a message left unfinished is visible again after it. */
const VISIBILITY_SECONDS = 900;

const FunctionName = ticketChangesFunctionName(stage);
async function consume(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const answer = await lambda.send(new InvokeCommand({ FunctionName, Payload: JSON.stringify(event) }));
  const payload = new TextDecoder().decode(answer.Payload);
  if (answer.FunctionError) throw new Error(`${FunctionName} failed: ${payload}`);
  return JSON.parse(payload) as DynamoDBBatchResponse;
}

async function replayMessage(QueueUrl: string, message: Message) {
  const batch = failedBatchOf(message.Body ?? '');
  const changes = await readFailedBatch(streams, batch);
  const pointer = `${batch.shardId} ${batch.startSequenceNumber}…${batch.endSequenceNumber}`;
  if (dryRun) {
    await sqs.send(
      new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: 0 }),
    );
    return { pointer, changes: changes.length, replayed: 0 };
  }
  const outcome = await replayChanges(changes, consume);
  if (!outcome.failedAt) await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: message.ReceiptHandle }));
  return { pointer, ...outcome };
}

/** The on-failure queue of the consumer's stream mapping (infra/webhooks.ts): its ARN's last two parts are account and name. */
async function failedChangesQueueUrl(): Promise<string | undefined> {
  const { EventSourceMappings = [] } = await lambda.send(new ListEventSourceMappingsCommand({ FunctionName }));
  const arn = EventSourceMappings.map((mapping) => mapping.DestinationConfig?.OnFailure?.Destination).find(Boolean);
  if (!arn) throw new Error(`${FunctionName} has no stream mapping with an on-failure queue`);
  const [account, name] = arn.split(':').slice(-2);
  return (await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account }))).QueueUrl;
}

async function main() {
  const QueueUrl = await failedChangesQueueUrl();
  const results: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  while (results.length < MAX_MESSAGES) {
    const { Messages: messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: VISIBILITY_SECONDS }),
    );
    // A dry run makes each message visible again: met a second time, the queue has been read through.
    const fresh = messages.filter((message) => !seen.has(message.MessageId!));
    if (!fresh.length) break;
    for (const message of fresh) {
      seen.add(message.MessageId!);
      try {
        results.push(await replayMessage(QueueUrl!, message));
      } catch (error) {
        results.push({ message: message.MessageId, error: `${(error as Error).name}: ${(error as Error).message}` });
      }
    }
  }
  console.table(results);
  const left = results.filter((result) => 'error' in result || result.failedAt).length;
  console.log(
    dryRun
      ? `${results.length} pointers read; nothing replayed (--dry-run).`
      : `${results.length - left} of ${results.length} pointers replayed and deleted; ${left} left in the queue.`,
  );
  if (left) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(`webhooks:replay failed: ${(error as Error).name}: ${(error as Error).message}`);
  process.exitCode = 1;
}
