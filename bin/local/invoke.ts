import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { AsyncLocalStorage } from 'node:async_hooks';
import { type RouteRow, routeKey } from '#shared/routes';
import { lambdaContext } from './lambda-http.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/**
 * Which deployed function the code running now stands in for: a route's key (`GET /tickets`) or a
 * job's name (`ticket-changes`), as Lambda would run it in a function of its own. The tests record
 * each function's DynamoDB commands by it against its grant (test/support/table-grants.ts).
 */
const invocation = new AsyncLocalStorage<string>();
export const currentFunction = (): string | undefined => invocation.getStore();
/** Runs `work` as the deployed function `name` (a job locally run in-process: bin/local/webhook-workers.ts). */
export const runAs = <R>(name: string, work: () => R): R => invocation.run(name, work);

const modules = new Map<string, Promise<{ handler: Handler }>>();

/**
 * Runs a route's handler as Lambda would: `functions/<handler>.ts` is imported on first
 * use (the cold start) and reused afterwards. Shared by the local server and the tests.
 */
export async function invoke(row: RouteRow, event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  let loading = modules.get(row.handler);
  if (!loading) {
    loading = import(new URL(`../../functions/${row.handler}.ts`, import.meta.url).href) as Promise<{
      handler: Handler;
    }>;
    loading.catch(() => modules.delete(row.handler));
    modules.set(row.handler, loading);
  }
  const { handler } = await loading;
  const result = await runAs(routeKey(row), () => handler(event, lambdaContext(event, row)));
  if (typeof result === 'object' && result !== null && 'statusCode' in result) return result;
  // Payload 2.0: a result without a status code is a JSON body answered with 200.
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: typeof result === 'string' ? result : JSON.stringify(result),
  };
}
