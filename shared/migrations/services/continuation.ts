import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';

/**
 * Starts a function again, asynchronously (`Event`): how the deployed migration runner goes on
 * past Lambda's 15 minutes. Imported only by that function (infra/migrations.ts grants it
 * InvokeFunction on itself alone).
 */
const lambda = new LambdaClient({});

export async function invokeAgain(functionName: string): Promise<void> {
  await lambda.send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: '{}' }));
}
