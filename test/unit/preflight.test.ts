import { describe, expect, it } from 'vitest';
import { covers, judge, plan, report, type Facts } from '../../bin/preflight/checks.ts';
import { parseArguments } from '../../bin/preflight.ts';
import type { LedgerRow } from '#shared/migrations/use-cases/commands';
import { routes } from '#shared/routes';
import { stageReservations } from '../../infra/concurrency.ts';
import { resolveStage, STAGE_FILES, StageSettingsError } from '../../infra/stages.ts';

const prod = (context: Record<string, string> = {}) =>
  resolveStage(
    (key) =>
      ({
        stage: 'prod',
        emailFrom: 'no-reply@tickets.example.net.test',
        sesIdentity: 'tickets.example.net.test',
        ...context,
      })[key],
  );
const staging = () =>
  resolveStage(
    (key) =>
      ({
        stage: 'staging',
        emailFrom: 'no-reply@staging.tickets.example.net.test',
        sesIdentity: 'staging.tickets.example.net.test',
      })[key],
  );
/** The account and domains committed for prod (infra/stages/prod.ts). */
const ACCOUNT = STAGE_FILES.prod.env!.account;
const ZONE = STAGE_FILES.prod.hostedZone!.name;

/** Everything a first deploy needs, present. */
const ready = (over: Partial<Facts> = {}): Facts => ({
  settings: prod(),
  region: 'us-east-1',
  account: { value: ACCOUNT },
  sesAddress: { value: null },
  sesDomain: { value: { verified: true } },
  sesAccount: { value: { productionAccess: true, sendingEnabled: true } },
  signingKeys: { value: { hasCurrentVersion: true } },
  lambdaConcurrency: { value: { limit: 1000, unreserved: 1000 } },
  reservedNow: { value: 0 },
  reservedByStage: 180,
  // A quota raised for prod's on-sale (infra/README.md "Sized for the rush").
  dynamoLimits: { value: { tableMaxReadUnits: 200_000, tableMaxWriteUnits: 200_000 } },
  certificate: { value: { status: 'ISSUED', names: [ZONE, `*.${ZONE}`] } },
  hostedZone: { value: { name: `${ZONE}.` } },
  alarmTopics: { value: [] },
  // A first deploy: no runner yet.
  migrations: { value: null },
  ...over,
});

const finding = (facts: Facts, check: string) => judge(facts).find((each) => each.check === check)!;

describe('preflight checks', () => {
  it('passes a ready account, every line ok', () => {
    const findings = judge(ready());
    expect(findings.map((each) => each.verdict)).toEqual(Array(findings.length).fill('ok'));
    expect(report(findings)).toMatchObject({ failed: false, text: expect.stringContaining('Ready to deploy.') });
  });

  it('refuses the placeholder sender, an unverified or missing SES identity, and warns about the sandbox', () => {
    // Only dev can hold a placeholder sender: staging and prod refuse one when their settings are read.
    const placeholder = ready({ settings: resolveStage((key) => ({ stage: 'dev' })[key]) });
    expect(finding(placeholder, 'mail sender')).toMatchObject({
      verdict: 'fail',
      fix: 'set mail.from and mail.sesIdentity in infra/stages/dev.ts (a domain verified in SES)',
    });
    expect(finding(ready({ sesDomain: { value: { verified: false } } }), 'mail sender')).toMatchObject({
      verdict: 'fail',
      message: expect.stringContaining('not verified yet'),
    });
    expect(finding(ready({ sesDomain: { value: null } }), 'mail sender')).toMatchObject({
      verdict: 'fail',
      fix: expect.stringContaining('create-email-identity --email-identity tickets.example.net.test'),
    });
    // prod's customers would get no mail at all: a refusal; staging's testers can verify their addresses.
    const sandboxed = { sesAccount: { value: { productionAccess: false, sendingEnabled: true } } };
    expect(finding(ready(sandboxed), 'mail sandbox')).toMatchObject({
      verdict: 'fail',
      fix: expect.stringContaining('production access'),
    });
    expect(finding(ready({ ...sandboxed, settings: staging() }), 'mail sandbox').verdict).toBe('warn');
    expect(
      finding(ready({ sesAccount: { value: { productionAccess: true, sendingEnabled: false } } }), 'mail sandbox')
        .verdict,
    ).toBe('fail');
  });

  describe('reserved concurrency (GetAccountSettings, and what the stage reserves now)', () => {
    const account = (limit: number, unreserved: number, reservedNow = 0): Partial<Facts> => ({
      lambdaConcurrency: { value: { limit, unreserved } },
      reservedNow: { value: reservedNow },
    });
    const prodReserves = stageReservations(routes, prod());
    // prod before it was sized for an on-sale: its gate, logins and lists alone fit a default account.
    const unsized = { ...prod(), onSale: undefined };
    const unsizedReserves = stageReservations(routes, unsized);

    it("refuses prod sized for its on-sale in a default account of 1,000: the sale's path alone needs more", () => {
      expect(prodReserves).toBeGreaterThan(1000);
      const refused = finding(ready({ ...account(1000, 1000), reservedByStage: prodReserves }), 'concurrency');
      expect(refused.verdict).toBe('fail');
      expect(refused.fix).toContain(`--quota-code L-B99A9384 --desired-value ${prodReserves + 100}`);
    });

    it("refuses a new account's quota of 10, naming the quota to request and the setting that deploys today", () => {
      const refused = finding(ready({ ...account(10, 10), reservedByStage: prodReserves }), 'concurrency');
      expect(refused.verdict).toBe('fail');
      expect(refused.message).toContain(`leaving ${10 - prodReserves} unreserved; Lambda keeps at least 10`);
      // Its reservations and Lambda's 100 unreserved.
      expect(refused.fix).toContain(`quota of ${prodReserves + 100}`);
      expect(refused.fix).toContain(`--quota-code L-B99A9384 --desired-value ${prodReserves + 100} --region us-east-1`);
      expect(refused.fix).toContain('set policy.reservedConcurrency: false in infra/stages/prod.ts');
      // With the setting off, the same new account takes the deploy.
      const off = { ...prod(), reservedConcurrency: false };
      expect(stageReservations(routes, off)).toBe(0);
      expect(
        finding(
          ready({ ...account(10, 10), settings: off, reservedByStage: stageReservations(routes, off) }),
          'concurrency',
        ),
      ).toMatchObject({ verdict: 'ok', message: expect.stringContaining('reserves none') });
    });

    it("passes a default account's 1,000 for a stage not sized for an on-sale, and counts other workloads' reservations", () => {
      const settings = unsized;
      expect(
        finding(ready({ ...account(1000, 1000), settings, reservedByStage: unsizedReserves }), 'concurrency'),
      ).toMatchObject({
        verdict: 'ok',
        message: `reserves ${unsizedReserves} of 1000; ${1000 - unsizedReserves} stay unreserved`,
      });
      // Another workload reserves 800: 200 left, less the stage's is below 100.
      const crowded = finding(
        ready({ ...account(1000, 200), settings, reservedByStage: unsizedReserves }),
        'concurrency',
      );
      expect(crowded.verdict).toBe('fail');
      expect(crowded.fix).toContain(`quota of ${800 + unsizedReserves + 100}`);
    });

    it('passes a redeploy of a stage that already reserves: its own reservations are given back first, not counted twice', () => {
      // A quota 200 above the stage: the first deploy leaves 200; GetAccountSettings then says 200 unreserved.
      const quota = prodReserves + 200;
      const first = finding(ready({ ...account(quota, quota), reservedByStage: prodReserves }), 'concurrency');
      expect(first.verdict).toBe('ok');
      const redeploy = finding(
        ready({ ...account(quota, quota - prodReserves, prodReserves), reservedByStage: prodReserves }),
        'concurrency',
      );
      expect(redeploy).toMatchObject({
        verdict: 'ok',
        message: expect.stringContaining(`${quota - prodReserves} stay unreserved`),
      });
    });

    it('is unknown, not ok, when the account cannot be read; a stage that reserves nothing needs no read', () => {
      expect(finding(ready({ lambdaConcurrency: { error: 'AccessDeniedException: x' } }), 'concurrency').verdict).toBe(
        'unknown',
      );
      expect(finding(ready({ reservedNow: { error: 'ThrottlingException: x' } }), 'concurrency').verdict).toBe(
        'unknown',
      );
      expect(finding(ready({ reservedByStage: 0, lambdaConcurrency: { error: 'x' } }), 'concurrency').verdict).toBe(
        'ok',
      );
    });
  });

  describe("table throughput (DescribeLimits, against the on-sale's warm throughput)", () => {
    it("warns where a table may take less than the on-sale's write units a second, naming the quotas to request", () => {
      const defaults = { value: { tableMaxReadUnits: 40_000, tableMaxWriteUnits: 40_000 } };
      const warned = finding(ready({ dynamoLimits: defaults }), 'table throughput');
      expect(warned.verdict).toBe('warn');
      expect(warned.message).toContain('write 40,000 < 164,600');
      expect(warned.message).toContain('read 40,000 < 56,000');
      expect(warned.fix).toContain('"Table-level write throughput limit" (at least 164600)');
      expect(warned.fix).toContain('servicequotas');
      expect(finding(ready(), 'table throughput').verdict).toBe('ok');
    });

    it('is unknown when the quota cannot be read, and needs no read for a stage not sized for an on-sale', () => {
      const denied = { error: 'AccessDeniedException: x' };
      expect(finding(ready({ dynamoLimits: denied }), 'table throughput').verdict).toBe('unknown');
      const unsized = { ...prod(), onSale: undefined };
      expect(finding(ready({ settings: unsized, dynamoLimits: undefined }), 'table throughput').verdict).toBe('ok');
    });
  });

  it('names `npm run keys` for a missing signing-key secret', () => {
    expect(finding(ready({ signingKeys: { value: null } }), 'signing keys')).toMatchObject({
      verdict: 'fail',
      fix: 'npm run keys -- init --stage prod',
    });
  });

  it('checks the region is set and the account, and DNS for custom domains (dev: not pinned)', () => {
    const dev = (context: Record<string, string> = {}) => resolveStage((key) => ({ stage: 'dev', ...context })[key]);
    const devFacts = (over: Partial<Facts> = {}) =>
      ready({ settings: dev(), certificate: undefined, hostedZone: undefined, ...over });
    const ownAcl = dev({ webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/abc' });
    expect(finding(devFacts({ region: 'eu-west-1', settings: ownAcl }), 'region').verdict).toBe('ok');
    expect(finding(devFacts({ region: undefined }), 'region').verdict).toBe('fail');
    expect(finding(devFacts({ expectedAccount: '210987654321' }), 'account')).toMatchObject({
      verdict: 'fail',
      message: `the credentials are of account ${ACCOUNT}, not 210987654321`,
    });
    const domain = dev({
      adminDomain: 'admin.tickets.example.net.test',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-123',
    });
    expect(finding(devFacts({ settings: domain }), 'domains').verdict).toBe('warn');
    const { text, failed } = report(judge(ready({ signingKeys: { value: null } })));
    expect(failed).toBe(true);
    expect(text).toContain('FAIL  signing keys');
    expect(text).toContain('→ npm run keys -- init --stage prod');
  });

  it("holds a pinned stage to its file's account and region", () => {
    expect(finding(ready({ account: { value: '123456789012' } }), 'account')).toMatchObject({
      verdict: 'fail',
      message: `the credentials are of account 123456789012, not ${ACCOUNT} (pinned in infra/stages/prod.ts)`,
    });
    expect(finding(ready({ region: 'eu-west-1' }), 'region')).toMatchObject({
      verdict: 'fail',
      fix: 'export AWS_REGION=us-east-1',
    });
  });

  it('wants the certificate ISSUED and covering every domain, in us-east-1', () => {
    expect(finding(ready(), 'certificate')).toMatchObject({
      verdict: 'ok',
      message: expect.stringContaining('ISSUED'),
    });
    expect(
      finding(
        ready({ certificate: { value: { status: 'PENDING_VALIDATION', names: [ZONE, `*.${ZONE}`] } } }),
        'certificate',
      ),
    ).toMatchObject({ verdict: 'fail', message: 'the certificate is PENDING_VALIDATION, not ISSUED' });
    // *.zone covers admin.zone, not the deeper name a stage might use.
    expect(
      finding(ready({ certificate: { value: { status: 'ISSUED', names: [ZONE] } } }), 'certificate'),
    ).toMatchObject({
      verdict: 'fail',
      message: expect.stringContaining(`admin.${ZONE}`),
    });
    expect(finding(ready({ certificate: { value: null } }), 'certificate').verdict).toBe('fail');
    expect(covers('*.a.test', 'b.a.test')).toBe(true);
    expect(covers('*.a.test', 'c.b.a.test')).toBe(false);
  });

  it('wants the hosted zone to be the named one, holding the domains; existing alarm topics; someone to alarm', () => {
    expect(finding(ready(), 'hosted zone').verdict).toBe('ok');
    expect(finding(ready({ hostedZone: { value: { name: 'other.test.' } } }), 'hosted zone')).toMatchObject({
      verdict: 'fail',
      message: expect.stringContaining(`is other.test, not ${ZONE}`),
    });
    expect(finding(ready({ hostedZone: { value: null } }), 'hosted zone').verdict).toBe('fail');
    const pager = 'arn:aws:sns:us-east-1:444455556666:pager';
    const paged = prod({ alarmTopicArn: pager });
    expect(
      finding(ready({ settings: paged, alarmTopics: { value: [{ arn: pager, exists: false }] } }), 'alarm subscribers'),
    ).toMatchObject({ verdict: 'fail', message: `no topic ${pager}` });
    expect(finding(ready(), 'alarm subscribers')).toMatchObject({
      verdict: 'ok',
      message: STAGE_FILES.prod.alarms.emails.join(', '),
    });
    expect(
      finding(ready({ settings: resolveStage((key) => ({ stage: 'dev' })[key]) }), 'alarm subscribers').verdict,
    ).toBe('warn');
  });

  it('says what the deploy will do: where, which front-end files, which table, which secret versions, which overrides', () => {
    const lines = plan(
      prod({
        tableName: 'ticketing-prod-restored-20250301',
        // A restored table comes with its stream's ARN (infra/stages.ts refuses it without).
        tableStreamArn: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/ticketing-prod-restored-20250301/stream/2025-03-01T10:00:00.000`,
      }),
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        `stack Ticketing-prod in account ${ACCOUNT}, us-east-1`,
        `admin on ${STAGE_FILES.prod.frontEnds.admin.domain}: SPA files left as they are (API docs only)`,
        'table: the restored ticketing-prod-restored-20250301',
        'for this deploy only: -c emailFrom, -c sesIdentity, -c tableName, -c tableStreamArn',
      ]),
    );
    expect(plan(resolveStage((key) => ({ stage: 'dev' })[key]))).toContain(
      'admin on *.cloudfront.net: placeholder pages deployed',
    );
  });

  it('reads the cdk-style arguments, refusing unknown ones', () => {
    expect(parseArguments(['--stage', 'prod', '--account', '1', '-c', 'emailFrom=a@b.test'])).toEqual({
      context: { stage: 'prod', emailFrom: 'a@b.test' },
      expectedAccount: '1',
    });
    expect(() => parseArguments(['--force', 'x'])).toThrow(StageSettingsError);
    expect(() => parseArguments(['--stage', 'prod', '-c', 'emailFrmo=a@b.test'])).toThrow(
      /unknown setting -c emailFrmo/,
    );
    expect(() => parseArguments(['--stage'])).toThrow(StageSettingsError);
  });
});

describe('preflight of the table and the data migrations (from the stage runner, infra/migrations.ts)', () => {
  const row = (id: number, over: Partial<LedgerRow> = {}): LedgerRow => ({
    id,
    name: `migration-${id}`,
    status: 'done',
    startedAt: '2026-11-01T00:00:00.000Z',
    finishedAt: '2026-11-01T00:01:00.000Z',
    runs: 1,
    progress: null,
    heldUntil: null,
    lastError: null,
    ...over,
  });
  const runner = (tableIndexes: string[], ledger = [row(1), row(2)]) =>
    ready({ migrations: { value: { ledger, tableIndexes } } });
  const ALL = ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'];

  it('refuses a deploy that would add more than one GSI, with the exact next command; one is fine', () => {
    const behind = finding(runner(ALL.slice(0, 3)), 'table indexes');
    expect(behind.verdict).toBe('fail');
    expect(behind.fix).toBe(
      'npx cdk deploy -c stage=prod -c tableIndexes=4, then the next once GSI4 is ACTIVE, up to 6',
    );
    expect(finding(runner(ALL.slice(0, 5)), 'table indexes')).toMatchObject({
      verdict: 'ok',
      message: 'adds GSI6 (5 of 6 now)',
    });
    expect(finding(runner(ALL), 'table indexes')).toMatchObject({ verdict: 'ok', message: 'all 6 in place' });
    // The step the fix names passes: four declared on a table of three.
    const stepped = ready({
      settings: prod({ tableIndexes: '4' }),
      migrations: { value: { ledger: [], tableIndexes: ALL.slice(0, 3) } },
    });
    expect(finding(stepped, 'table indexes').verdict).toBe('ok');
    // Fewer declared than the table has would delete one.
    expect(
      finding({ ...stepped, migrations: { value: { ledger: [], tableIndexes: ALL } } }, 'table indexes').verdict,
    ).toBe('fail');
  });

  it('a first deploy (no runner yet) gets every index and every migration', () => {
    const first = ready({ migrations: { value: null } });
    expect(finding(first, 'table indexes').verdict).toBe('ok');
    expect(finding(first, 'migrations').message).toMatch(/first deploy creates it/);
  });

  it('names the migrations not done, and a failed one with the command that resumes it', () => {
    expect(finding(runner(ALL), 'migrations')).toMatchObject({ verdict: 'ok', message: 'all 2 done' });
    const pending = finding(runner(ALL, [row(1), row(2, { status: 'running', progress: '12/40' })]), 'migrations');
    expect(pending).toMatchObject({
      verdict: 'ok',
      message: '2 migration-2 not done yet; the runner goes on after the deploy',
    });
    const failed = finding(
      runner(ALL, [row(1), row(2, { status: 'running', lastError: 'Error: throttled' })]),
      'migrations',
    );
    // A release does not go past a failed migration.
    expect(failed.verdict).toBe('fail');
    expect(failed.message).toBe('2 migration-2 stopped on an error: Error: throttled');
    expect(failed.fix).toBe(
      'fix its cause, then npm run migrations -- --stage prod --resume (it goes on from its checkpoint); deploy once it is done',
    );
    expect(report(judge(runner(ALL, [row(1, { lastError: 'Error: x', status: 'running' })]))).failed).toBe(true);
    // Unreadable: its own verdict, never a pass, for the ledger and for the GSI count alike.
    const unreadable = ready({ migrations: { error: 'AccessDeniedException: no' } });
    expect(finding(unreadable, 'migrations').verdict).toBe('unknown');
    expect(finding(unreadable, 'table indexes').verdict).toBe('unknown');
    expect(report(judge(unreadable))).toMatchObject({
      failed: true,
      text: expect.stringContaining('could not be made'),
    });
  });
});

describe('preflight of what the stage file pins and protects', () => {
  const V1 = '0b6f1a52-2c1d-4c55-9e0a-6a3c9d2e1f01';
  const V2 = '7e21c4d8-9b3a-4f60-8d17-2b5e8c4a9f02';
  const existing: Partial<Facts> = { migrations: { value: { ledger: [], tableIndexes: [] } } };

  it('asks for deletion protection once the stage exists, and warns about it on a first deploy', () => {
    // The committed prod file: off, so a failed first create rolls back to nothing.
    expect(finding(ready(), 'data protection')).toMatchObject({
      verdict: 'ok',
      message: expect.stringContaining('first deploy'),
    });
    expect(finding(ready(existing), 'data protection')).toMatchObject({
      verdict: 'fail',
      fix: 'set policy.deletionProtection: true in infra/stages/prod.ts (deletion protection, kept whatever happens)',
    });
    const protectedProd = { ...prod(), deletionProtection: true };
    expect(finding(ready({ ...existing, settings: protectedProd }), 'data protection').verdict).toBe('ok');
    expect(finding(ready({ settings: protectedProd }), 'data protection').verdict).toBe('warn');
    expect(finding(ready({ migrations: { error: 'AccessDeniedException: x' } }), 'data protection').verdict).toBe(
      'unknown',
    );
  });

  it('warns when staging and prod share an SES account and region (one reputation)', () => {
    expect(finding(ready(), 'mail account').verdict).toBe('ok');
    const shared = prod({ account: STAGE_FILES.staging.env!.account });
    expect(finding(ready({ settings: shared }), 'mail account')).toMatchObject({
      verdict: 'warn',
      message: expect.stringContaining('staging is in the same account and region'),
    });
  });

  it('refuses a pinned secret version the secret does not have', () => {
    const pinned = prod({ signingKeysVersion: V1, originVerifyVersion: V2 });
    const facts = (signing: string[], origin: string[] | null) =>
      ready({
        settings: pinned,
        signingKeys: { value: { hasCurrentVersion: true, versions: signing } },
        originVerify: { value: origin && { versions: origin } },
      });
    expect(finding(facts([V1], [V2]), 'signing keys')).toMatchObject({
      verdict: 'ok',
      message: expect.stringContaining(V1),
    });
    expect(finding(facts([V1], [V2]), 'origin verify').verdict).toBe('ok');
    expect(finding(facts([V2], [V2]), 'signing keys')).toMatchObject({
      verdict: 'fail',
      message: expect.stringContaining(`the pinned version ${V1}`),
    });
    expect(finding(facts([V1], [V1]), 'origin verify').verdict).toBe('fail');
    expect(finding(facts([V1], null), 'origin verify').verdict).toBe('fail');
    expect(
      finding(ready({ settings: pinned, originVerify: { error: 'AccessDeniedException: x' } }), 'origin verify')
        .verdict,
    ).toBe('unknown');
  });

  it('wants the web ACL the stage file names to exist (WAFv2, CloudFront scope)', () => {
    const arn = 'arn:aws:wafv2:us-east-1:444455556666:global/webacl/edge/0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9';
    const own = prod({ webAclArn: arn });
    expect(finding(ready({ settings: own, webAcl: { value: { name: 'edge' } } }), 'web ACL').verdict).toBe('ok');
    expect(finding(ready({ settings: own, webAcl: { value: null } }), 'web ACL')).toMatchObject({
      verdict: 'fail',
      message: `${arn} does not exist`,
    });
    expect(
      finding(ready({ settings: own, webAcl: { error: 'WAFInternalErrorException: x' } }), 'web ACL').verdict,
    ).toBe('unknown');
  });
});
