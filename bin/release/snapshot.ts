import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { createApp } from '../../infra/app.ts';
import type { StageName } from '../../infra/stages.ts';
import { normaliseTemplate, type Templates } from './review.ts';

/** The stage a release snapshot is of: prod, where every release goes (staging is the same stack). */
export const RELEASE_STAGE: StageName = 'prod';
/** Where the last released templates are committed. */
export const snapshotPath = (stage: StageName): string =>
  fileURLToPath(new URL(`../../test/infra/release/${stage}.json`, import.meta.url));

/**
 * The stage's templates (the main stack's and each nested stack's, by construct path),
 * normalised as the snapshot keeps them. Synthesised without bundling and with stand-in API
 * docs, as the infra tests do: the code and the documents are assets, normalised away.
 */
export function releaseTemplates(stage: StageName): Templates {
  process.env.CDK_VALIDATION = 'false';
  const flags = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;
  const apiDocs = fileURLToPath(new URL('../../test/infra/fixtures/api-docs', import.meta.url));
  // An outdir of its own, removed after: CDK leaves the temporary one it would make.
  const outdir = mkdtempSync(path.join(tmpdir(), 'ticketing-release-'));
  try {
    const { stack } = createApp({
      outdir,
      context: { ...flags, stage, 'aws:cdk:bundling-stacks': [], apiDocs },
      report: () => {},
    });
    const nested = stack.node.findAll().filter((node): node is NestedStack => NestedStack.isNestedStack(node));
    return Object.fromEntries(
      [stack, ...nested].map((each) => [each.node.path, normaliseTemplate(Template.fromStack(each).toJSON())]),
    );
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
