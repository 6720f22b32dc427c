import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';

/**
 * The tests prove the runtime we ship: npm scripts (`npm test`, `npm start`, the bench, the load
 * runs, CI) run on the `node` devDependency, which `npm run` puts first on the PATH, and its
 * major is the Lambda runtime's (infra/function-defaults.ts, nodejs22.x).
 */
const LAMBDA_MAJOR = Runtime.NODEJS_22_X.name.match(/^nodejs(\d+)\.x$/)![1];
const major = (version: string) => version.replace(/^v/, '').split('.')[0];

describe('the Node the project runs on', () => {
  it("is the Lambda runtime's major, here in vitest", () => {
    expect(major(process.version)).toBe(LAMBDA_MAJOR);
  });

  it('is the pinned devDependency, for tsx scripts (npm start, the bench, preflight) too', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(major(pkg.devDependencies.node)).toBe(LAMBDA_MAJOR);
    // tsx (as `npm start` runs it) finds node on the same PATH npm gave this process.
    const tsxVersion = execFileSync('tsx', ['-e', 'process.stdout.write(process.version)'], { encoding: 'utf8' });
    expect(tsxVersion).toBe(`v${pkg.devDependencies.node}`);
    // tsx compiles on start: seconds on a busy machine.
  }, 60_000);
});
