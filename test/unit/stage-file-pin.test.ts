import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keysRegion, pinSecretVersion, stageFile } from '../../bin/keys/stage-file.ts';
import { STAGE_FILES } from '../../infra/stages.ts';

/** `npm run keys` writes the secret version it made into the stage file (README "Rotating the signing key"). */
const V1 = '0b6f1a52-2c1d-4c55-9e0a-6a3c9d2e1f01';
const V2 = '7e21c4d8-9b3a-4f60-8d17-2b5e8c4a9f02';

describe('pinning a secret version in a stage file', () => {
  const committed = readFileSync(stageFile('prod'), 'utf8');

  it('writes the version into the committed file, one field a line, leaving the rest of the file as it was', () => {
    const pinned = pinSecretVersion(committed, 'signingKeys', V1);
    expect(pinned).toContain(`  secretVersions: {\n    signingKeys: '${V1}',\n  },\n`);
    expect(pinned.replace(/ {2}secretVersions: \{[^}]*\},\n/, '')).toBe(
      committed.replace(/ {2}secretVersions: \{[^}]*\},\n/, ''),
    );
  });

  it('replaces the same secret’s pin and keeps the other one', () => {
    const once = pinSecretVersion(pinSecretVersion(committed, 'signingKeys', V1), 'originVerify', V1);
    const twice = pinSecretVersion(once, 'signingKeys', V2);
    expect(twice).toContain(`    signingKeys: '${V2}',\n    originVerify: '${V1}',\n`);
    expect(twice).not.toContain(`signingKeys: '${V1}'`);
  });

  it('refuses what is not a version id, and a file without secretVersions', () => {
    expect(() => pinSecretVersion(committed, 'signingKeys', 'latest')).toThrow(/version id/);
    expect(() => pinSecretVersion('export const stage = {};', 'signingKeys', V1)).toThrow(/secretVersions/);
  });
});

describe('the region `npm run keys` writes a secret in', () => {
  it("is the stage file's pinned region, not the shell's, unless --region says otherwise; dev (not pinned) takes the shell's", () => {
    expect(keysRegion('prod')).toBe(STAGE_FILES.prod.env!.region);
    expect(keysRegion('staging')).toBe(STAGE_FILES.staging.env!.region);
    expect(keysRegion('prod', 'eu-central-1')).toBe('eu-central-1');
    expect(keysRegion('dev')).toBeUndefined();
  });
});
