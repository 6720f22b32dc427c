import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reviewRelease, type Templates } from '../../bin/release/review.ts';
import { RELEASE_STAGE, releaseTemplates, snapshotPath } from '../../bin/release/snapshot.ts';

/**
 * Every release diffed against the last one (bin/release/review.ts): the synthesised prod
 * templates against the committed snapshot of the last released ones. A change the review
 * refuses is accepted on purpose by refreshing the snapshot in the same commit
 * (`npm run release:snapshot`), where the reviewer sees it.
 */
const released = (): Templates => JSON.parse(readFileSync(snapshotPath(RELEASE_STAGE), 'utf8'));
let current: Templates;

beforeAll(() => {
  current = releaseTemplates(RELEASE_STAGE);
});

/** The snapshot with one change made to a copy (edited as plain JSON, reaching in where a test needs to). */
const changed = (change: (templates: Record<string, any>) => void): Templates => {
  const copy = released();
  change(copy);
  return copy;
};
const resourceOf = (
  templates: Templates,
  stack: string,
  type: string,
  has: (resource: any) => boolean = () => true,
) => {
  const found = Object.entries(templates[stack]!.Resources ?? {}).find(
    ([, resource]: [string, any]) => resource.Type === type && has(resource),
  );
  if (!found) throw new Error(`no ${type} in ${stack}`);
  return found as [string, any];
};
const MAIN = `Ticketing-${RELEASE_STAGE}`;
const OPERATIONS = `${MAIN}/Operations`;

describe(`the release of ${RELEASE_STAGE}, against the last released templates (test/infra/release/)`, () => {
  it('replaces or deletes no stateful resource, changes at most one GSI, and replaces no custom-named resource', () => {
    expect(reviewRelease(released(), current)).toEqual([]);
  });

  it('refuses the replacement or the deletion of the table', () => {
    const [id] = resourceOf(released(), MAIN, 'AWS::DynamoDB::GlobalTable');
    const rekeyed = changed((templates) => {
      templates[MAIN]!.Resources[id].Properties.KeySchema = '<another key>';
    });
    expect(reviewRelease(released(), rekeyed)).toEqual([
      expect.stringContaining(`${id} (AWS::DynamoDB::GlobalTable): a stateful resource is replaced`),
    ]);
    const gone = changed((templates) => {
      delete templates[MAIN]!.Resources[id];
    });
    expect(reviewRelease(released(), gone)).toEqual([expect.stringContaining('a stateful resource is deleted')]);
  });

  it('refuses the deletion of a retained log group and of a user pool', () => {
    const [group] = resourceOf(released(), MAIN, 'AWS::Logs::LogGroup');
    const [pool] = resourceOf(released(), MAIN, 'AWS::Cognito::UserPool');
    const gone = changed((templates) => {
      delete templates[MAIN]!.Resources[group];
      delete templates[MAIN]!.Resources[pool];
    });
    expect(reviewRelease(released(), gone)).toHaveLength(2);
  });

  it('takes one new GSI, refuses two in one release', () => {
    const [id] = resourceOf(released(), MAIN, 'AWS::DynamoDB::GlobalTable');
    const withIndexes = (count: number) =>
      changed((templates) => {
        const declared = templates[MAIN]!.Resources[id].Properties.GlobalSecondaryIndexes as any[];
        for (let n = 1; n <= count; n++) declared.push({ ...declared[0], IndexName: `NEW${n}` });
      });
    expect(reviewRelease(released(), withIndexes(1))).toEqual([]);
    expect(reviewRelease(released(), withIndexes(2))).toEqual([
      expect.stringContaining('2 GSIs change (NEW1, NEW2); CloudFormation changes one per update'),
    ]);
  });

  it('refuses a change that replaces a custom-named resource (the alarm topic made FIFO)', () => {
    const [id] = resourceOf(released(), OPERATIONS, 'AWS::SNS::Topic', (topic) => topic.Properties.TopicName);
    const fifo = changed((templates) => {
      templates[OPERATIONS]!.Resources[id].Properties.FifoTopic = '<true>';
    });
    expect(reviewRelease(released(), fifo)).toEqual([
      expect.stringContaining(`${id} (AWS::SNS::Topic): replaced while it keeps its custom TopicName`),
    ]);
  });
});

describe('the release snapshot', () => {
  it("leaves no synthesised templates behind (npm run release:snapshot, and this file's own synth)", () => {
    // This run's infra tests have a temporary directory of their own (test/support/infra-scratch.ts)...
    expect(path.basename(tmpdir())).toMatch(/^ticketing-infra-tests-\d+$/);
    // ...where the synth in beforeAll staged its templates, and removed them.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('ticketing-release-'))).toEqual([]);
  });
});
