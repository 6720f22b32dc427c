import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobs, type TableGrant } from '#shared/job-grants';
import { routeKey, routes } from '#shared/routes';
import { onlyId, type Resource, resourcesOf, routeFunctions, statementsOf, synth } from './synth.ts';

/**
 * Each function's grant on the table is exactly what shared/routes.ts names for it: its actions on the table, and
 * dynamodb:Query on the indexes it names, on no other index and through no wildcard. The other direction, that a
 * function sends nothing outside it and a full run sends every action granted, is the integration tests'
 * (test/support/table-grants.ts).
 */
type Granted = { actions: string[]; indexes: string[] };

/** What a function's statements grant on the table `tableId`: actions on the table itself, and the indexes queried. */
function grantOn(template: Template, fn: Resource, tableId: string): Granted {
  const actions = new Set<string>();
  const indexes = new Set<string>();
  for (const statement of statementsOf(template, fn)) {
    const named = [statement.Action].flat().filter((action) => action.startsWith('dynamodb:'));
    for (const resource of [statement.Resource].flat()) {
      const text = JSON.stringify(resource);
      // The table's own ARN (its stream's is the consumer's stream grant, not the table's).
      if (!text.includes(`["${tableId}","Arn"]`)) continue;
      const index = /\/index\/([^"]+)"/.exec(text)?.[1];
      if (index === undefined) for (const action of named) actions.add(action.slice('dynamodb:'.length));
      else {
        expect(named, `${fn.Properties.Description}: ${index}`).toEqual(['dynamodb:Query']);
        indexes.add(index);
      }
    }
  }
  return { actions: [...actions].sort(), indexes: [...indexes].sort() };
}

const declared = (grant: TableGrant | undefined): Granted => ({
  actions: [...(grant?.actions ?? [])].sort(),
  indexes: [...(grant?.indexes ?? [])].sort(),
});

/** Every DynamoDB action of a function's policies, whatever the resource. */
const dynamoActions = (template: Template, fn: Resource): string[] =>
  statementsOf(template, fn).flatMap((statement) =>
    [statement.Action].flat().filter((action) => action.startsWith('dynamodb:')),
  );

describe("each function's grant on the table", () => {
  let template: Template;
  let tableId: string;
  beforeAll(() => {
    template = synth().template;
    tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
  }, 120_000);

  it('grants every route exactly the actions and indexes of its row', () => {
    for (const row of routes) {
      const { fn } = routeFunctions(template).get(row.handler)!;
      expect(grantOn(template, fn, tableId), routeKey(row)).toEqual(
        declared(row.uses.table ? { actions: row.uses.table, indexes: row.uses.indexes } : undefined),
      );
    }
  });

  it('lets no route function Scan, or use any DynamoDB action beyond its row (no wildcard, no other resource)', () => {
    for (const row of routes) {
      const { fn } = routeFunctions(template).get(row.handler)!;
      const actions = dynamoActions(template, fn);
      expect(
        actions.filter((action) => action.includes('Scan') || action.includes('*')),
        routeKey(row),
      ).toEqual([]);
      const rowActions = new Set(['Query', ...(row.uses.table ?? [])].map((action) => `dynamodb:${action}`));
      expect(
        actions.filter((action) => !rowActions.has(action)),
        routeKey(row),
      ).toEqual([]);
    }
  });

  it("grants the gate's batch upload no Scan, DeleteItem or BatchWriteItem, and the gate list no write", () => {
    const scans = routeFunctions(template).get('gate/scans')!.fn;
    const list = routeFunctions(template).get('gate/gate-list')!.fn;
    for (const action of ['dynamodb:Scan', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
      expect(dynamoActions(template, scans)).not.toContain(action);
    expect(grantOn(template, list, tableId).actions.filter((action) => !/^(Get|BatchGet|Query)/.test(action))).toEqual(
      [],
    );
  });

  it("grants the jobs (the stream's consumers, the dispatcher, the reservations' lapsing job, the migrations runner) exactly their own lists", () => {
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    const byHandler = (pattern: RegExp) => {
      const found = Object.entries(functions).filter(([id]) => pattern.test(id));
      expect(found.map(([id]) => id)).toHaveLength(1);
      return found[0]![1];
    };
    const jobFunctions = {
      'ticket-changes': byHandler(/^WebhooksTicketChangesFunction/),
      dispatch: byHandler(/^WebhooksDispatcherFunction/),
      'issue-paid-orders': byHandler(/^IssuingConsumerFunction/),
      'release-reservations': byHandler(/^ReservationsLapserFunction/),
      migrations: byHandler(/^MigrationsFunction/),
    } satisfies Record<keyof typeof jobs, Resource>;
    for (const [job, fn] of Object.entries(jobFunctions))
      expect(grantOn(template, fn, tableId), job).toEqual(declared(jobs[job as keyof typeof jobs]));
    // Only the runner may Scan: its backfills read every item (never a request).
    expect(dynamoActions(template, jobFunctions['ticket-changes'])).not.toContain('dynamodb:Scan');
    expect(dynamoActions(template, jobFunctions.dispatch)).not.toContain('dynamodb:Scan');
    expect(dynamoActions(template, jobFunctions['release-reservations'])).not.toContain('dynamodb:Scan');
    expect(dynamoActions(template, jobFunctions['issue-paid-orders'])).not.toContain('dynamodb:Scan');
  });
});
