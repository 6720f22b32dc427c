#!/usr/bin/env -S npx tsx
/**
 * `npm run release:snapshot`: records the templates this commit releases as the last released
 * ones (test/infra/release/prod.json), which test/infra/release.test.ts diffs every later
 * change against. Run it when a release has gone out, or in the commit of an intended change the
 * test refuses (a replaced table...), so the review sees it.
 */
import { writeFileSync } from 'node:fs';
import { RELEASE_STAGE, releaseTemplates, snapshotPath } from './release/snapshot.ts';

const templates = releaseTemplates(RELEASE_STAGE);
// One resource a line: a refreshed snapshot's diff shows each resource that changed.
const stacks = Object.entries(templates).map(([stack, template]) => {
  const resources = Object.entries(template.Resources ?? {}).map(
    ([id, resource]) => `    ${JSON.stringify(id)}: ${JSON.stringify(resource)}`,
  );
  return `  ${JSON.stringify(stack)}: {\n   "Resources": {\n${resources.join(',\n')}\n   }\n  }`;
});
const path = snapshotPath(RELEASE_STAGE);
writeFileSync(path, `{\n${stacks.join(',\n')}\n}\n`);
console.log(`Wrote ${path}: commit it with the change it accepts.`);
