import { describe, expect, it } from 'vitest';
import { ROUTE_SAMPLE, synth } from './synth.ts';

/** The `tableIndexes` context: an existing stage gains the newer GSIs one deploy at a time (README "Data migrations"). */
describe('the table indexes during a migration', () => {
  // The table alone is read: its indexes do not depend on the route rows (a stage of the sample builds in a fraction).
  const indexNames = (context?: Record<string, unknown>) => {
    const tables = synth({ context, routes: ROUTE_SAMPLE }).template.findResources('AWS::DynamoDB::GlobalTable');
    const [table] = Object.values(tables) as { Properties: { GlobalSecondaryIndexes: { IndexName: string }[] } }[];
    return table!.Properties.GlobalSecondaryIndexes.map((index) => index.IndexName);
  };

  it('declares all six indexes by default', () => {
    expect(indexNames()).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6']);
  }, 60_000);

  it('declares only the first N indexes with the tableIndexes context, as the CLI passes it (text) or as a number', () => {
    expect(indexNames({ tableIndexes: '4' })).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4']);
    expect(indexNames({ tableIndexes: 5 })).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5']);
  }, 60_000);

  it("refuses a tableIndexes context that is not a count of the schema's indexes", () => {
    expect(() => synth({ context: { tableIndexes: '7' } })).toThrow(/tableIndexes must be a whole number from 0 to 6/);
    expect(() => synth({ context: { tableIndexes: 'all' } })).toThrow(/tableIndexes/);
  }, 60_000);
});
