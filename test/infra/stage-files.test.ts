import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Token } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../infra/app.ts';
import {
  contextOf,
  OVERRIDES,
  resolveStage,
  STAGE_FILES,
  STAGE_NAMES,
  type StageName,
  StageSettingsError,
} from '../../infra/stages.ts';
import type { StageFile } from '../../infra/stages/schema.ts';
import { ROUTE_SAMPLE, resourcesOf, stacksOf, synth } from './synth.ts';

/**
 * The stage files (infra/stages/<stage>.ts): `cdk deploy -c stage=<s>` alone reproduces the
 * stage, a `-c` changes one setting for one deploy, and staging and prod refuse placeholders.
 */

/**
 * Every template of the stage (main and nested stacks) as JSON, by construct path, without the nested stacks'
 * TemplateURL: that is the hash of the nested template's text, compared here in its own right, and the text's order of
 * parameters can differ with what the same process synthesised before (seen: the webhooks group's parameters in
 * another order on a second synth, the same template otherwise); `cdk synth` makes one app per process.
 */
const templatesOf = (context: Record<string, unknown>, report?: (line: string) => void) => {
  const { stack } = synth({ context, routes: ROUTE_SAMPLE, report });
  const templates = Object.fromEntries([...stacksOf(stack)].map(([path, template]) => [path, template.toJSON()]));
  for (const resource of Object.values(templates[stack.node.path]!.Resources as Record<string, any>))
    if (resource.Type === 'AWS::CloudFormation::Stack') delete resource.Properties.TemplateURL;
  return templates;
};

const leaves = (value: unknown, path: string[] = []): [string, unknown][] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]))
    : [[path.join('.'), value]];

describe('each stage file reproduces its stage', () => {
  it('gives every setting of every stage file (all but name and policy) a -c key', () => {
    const paths = new Set(Object.values(OVERRIDES).map((entry) => entry.path.join('.')));
    for (const stage of STAGE_NAMES) {
      for (const [path] of leaves(STAGE_FILES[stage])) {
        if (path === 'name' || path.startsWith('policy.')) continue;
        expect(paths, `${stage}: ${path}`).toContain(path);
      }
    }
  });

  it.each(STAGE_NAMES)(
    'synthesises %s the same with no flag as with every committed value also passed as -c',
    (stage) => {
      const printed: string[] = [];
      const plain = templatesOf({ stage }, (line) => printed.push(line));
      const flagged = templatesOf(contextOf(STAGE_FILES[stage]), (line) => printed.push(line));
      expect(Object.keys(plain).length).toBeGreaterThan(1);
      expect(flagged).toEqual(plain);
      // Only the tests' own documentation fixture (synth.ts) overrides anything; the committed values again change nothing.
      const fixture = `stage ${stage}: -c apiDocs overrides infra/stages/${stage}.ts for this deploy only`;
      expect(printed).toEqual([fixture, fixture]);
    },
  );

  it('pins staging and prod to their account and region, and leaves dev to the credentials', () => {
    for (const stage of STAGE_NAMES) {
      const { stack } = synth({ context: { stage }, routes: ROUTE_SAMPLE.slice(0, 1) });
      const env = STAGE_FILES[stage].env;
      if (stage === 'dev') {
        expect(env).toBeUndefined();
        expect(Token.isUnresolved(stack.account) && Token.isUnresolved(stack.region)).toBe(true);
      } else {
        expect(env, stage).toBeDefined();
        expect({ account: stack.account, region: stack.region }, stage).toEqual(env);
      }
    }
  });

  it('refuses a -c key that is no setting (a typo would otherwise deploy the committed value silently)', () => {
    expect(() => createApp({ context: { stage: 'dev', adminDomian: 'admin.northwind-tickets.com' } })).toThrow(
      /unknown setting -c adminDomian/,
    );
  });
});

describe('placeholders in staging and prod', () => {
  const withFile = (stage: StageName, change: (file: StageFile) => void) => {
    const file = structuredClone(STAGE_FILES[stage]);
    change(file);
    return { ...STAGE_FILES, [stage]: file };
  };
  const refusal = (stage: StageName, change: (file: StageFile) => void, context: Record<string, string> = {}) => {
    try {
      resolveStage((key) => ({ stage, ...context })[key], withFile(stage, change));
    } catch (error) {
      expect(error).toBeInstanceOf(StageSettingsError);
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  const CHANGES: [StageName, string, (file: StageFile) => void][] = [
    [
      'prod',
      'mail.from',
      (file) => {
        file.mail.from = 'no-reply@tickets.example.com';
      },
    ],
    ['prod', 'mail.sesIdentity', (file) => delete file.mail.sesIdentity],
    ['prod', 'env', (file) => delete file.env],
    [
      'prod',
      'alarms',
      (file) => {
        file.alarms = { emails: [], topicArns: [] };
      },
    ],
    [
      'staging',
      'policy.webAclLogs',
      (file) => {
        file.policy.webAclLogs = false;
      },
    ],
    [
      'staging',
      'frontEnds.admin.domain',
      (file) => {
        file.frontEnds.admin.domain = 'admin.tickets.example.org';
      },
    ],
    [
      'staging',
      'alarms.emails.0',
      (file) => {
        file.alarms.emails = ['ops@example.com'];
      },
    ],
  ];
  it.each(CHANGES)('%s: refuses %s in one line naming the setting and the file', (stage, setting, change) => {
    const message = refusal(stage, change);
    expect(message).not.toContain('\n');
    expect(message).toContain(setting);
    expect(message).toContain(`infra/stages/${stage}.ts`);
  });

  it("refuses an alarm topic outside the stage's region (CloudWatch notifies topics of its own region only)", () => {
    const message = refusal('prod', (file) => {
      file.alarms.topicArns = ['arn:aws:sns:eu-west-1:444455556666:pager'];
    });
    expect(message).toBe(
      'stage prod: alarms.topicArns.0 in infra/stages/prod.ts is in eu-west-1: alarms in us-east-1 notify topics there only',
    );
  });

  it('names the -c key when the placeholder came from one, and lets dev keep its placeholders', () => {
    expect(refusal('prod', () => {}, { emailFrom: 'no-reply@tickets.example.com' })).toMatch(
      /^stage prod: mail\.from \(-c emailFrom\) is a placeholder/,
    );
    expect(resolveStage((key) => ({ stage: 'dev' })[key]).emailFrom).toMatch(/example\.com$/);
  });

  it('prints one line on stderr and exits 1 from the CDK entry point', async () => {
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ stage: 'prod', sesIdentity: '' }) },
    });
    const failure = await run.then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const lines = failure!.stderr
      .split('\n')
      .filter((line) => line && !/Warning|node|upgrade|a\.co|^To |^$/.test(line));
    expect(lines).toEqual([expect.stringMatching(/mail\.sesIdentity \(-c sesIdentity\) is missing/)]);
  }, 60_000);
});

/**
 * Two spellings of one template that mean the same: adjacent literals of a join are one, the
 * resources of an IAM statement are a set, and a function's version resource is named after a
 * hash of its configuration (so a new TABLE_NAME names a new version: that is the switch).
 */
const canonical = (value: unknown, key = ''): unknown => {
  if (typeof value === 'string') return value.replace(/(CurrentVersion[0-9A-F]{8})[0-9a-f]{32}/g, '$1<configuration>');
  if (Array.isArray(value)) {
    const items = value.map((item) => canonical(item));
    return key === 'Resource' ? items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : items;
  }
  if (!value || typeof value !== 'object') return value;
  const object = Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [canonical(name), canonical(inner, name)] as const),
  ) as Record<string, unknown>;
  const join = object['Fn::Join'] as [string, unknown[]] | undefined;
  if (join?.[0] !== '') return object;
  // Adjacent literals of a join are one literal; a join of one literal is that string.
  const parts = join[1].reduce<unknown[]>((merged, part) => {
    const last = merged[merged.length - 1];
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
    return merged;
  }, []);
  return parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : { 'Fn::Join': ['', parts] };
};

describe('restoring the table (README "Restoring the table")', () => {
  const RESTORED = 'ticketing-prod-restored-20250301';
  // Enabled on the restored table before the switch (infra/stages.ts checkRestoredTable; test/infra/webhooks.test.ts).
  const RESTORED_STREAM = `arn:aws:dynamodb:us-east-1:444455556666:table/${RESTORED}/stream/2025-03-01T10:00:00.000`;
  let own: ReturnType<typeof synth>;
  let restored: ReturnType<typeof synth>;
  const printed: string[] = [];
  beforeAll(() => {
    own = synth({ context: { stage: 'prod' }, routes: ROUTE_SAMPLE });
    restored = synth({
      context: { stage: 'prod', tableName: RESTORED, tableStreamArn: RESTORED_STREAM },
      routes: ROUTE_SAMPLE,
      report: (line) => printed.push(line),
    });
  });

  it("prints the override as one line (apiDocs is the tests' own fixture)", () => {
    expect(printed).toEqual([
      'stage prod: -c tableName, -c tableStreamArn, -c apiDocs override infra/stages/prod.ts for this deploy only',
    ]);
  });

  /** The prod stage's settings with these `-c` values. */
  const prodWith = (context: Record<string, string>) => () =>
    resolveStage((key) => ({ stage: 'prod', ...context })[key]);

  it('refuses a restored table without its stream, naming the setting and how to enable the stream', () => {
    expect(prodWith({ tableName: RESTORED })).toThrow(
      `stage prod: table.restoredStreamArn in infra/stages/prod.ts is missing (or -c tableStreamArn): the webhooks read ${RESTORED}'s change stream; enable it (aws dynamodb update-table --table-name ${RESTORED} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES) and set its LatestStreamArn`,
    );
  });

  it("refuses another table's stream, a stream outside the stage's account or region, a stream without a restored table, and what is no stream ARN", () => {
    const other = RESTORED_STREAM.replace(RESTORED, 'ticketing-prod');
    expect(prodWith({ tableName: RESTORED, tableStreamArn: other })).toThrow(
      `stage prod: table.restoredStreamArn (-c tableStreamArn) is the stream of table ticketing-prod, not of ${RESTORED} (table.restoredName)`,
    );
    const elsewhere = RESTORED_STREAM.replace('us-east-1:444455556666', 'eu-west-1:444455556666');
    expect(prodWith({ tableName: RESTORED, tableStreamArn: elsewhere })).toThrow(
      'stage prod: table.restoredStreamArn (-c tableStreamArn) is in 444455556666, eu-west-1: the stage is pinned to 444455556666, us-east-1',
    );
    expect(prodWith({ tableStreamArn: RESTORED_STREAM })).toThrow(
      'stage prod: table.restoredStreamArn (-c tableStreamArn) is set without table.restoredName: only a restored table takes a stream ARN',
    );
    expect(
      prodWith({ tableName: RESTORED, tableStreamArn: `arn:aws:dynamodb:us-east-1:444455556666:table/${RESTORED}` }),
    ).toThrow(/table\.restoredStreamArn \(-c tableStreamArn\): must be a DynamoDB stream ARN/);
  });

  it("changes only the references to the table: its name, ARN and stream's ARN become the restored table's, the own table stays as it was", () => {
    const tableId = Object.keys(own.template.findResources('AWS::DynamoDB::GlobalTable'))[0]!;
    const name = JSON.stringify(restored.stack.resolve(restored.stack.table.tableName));
    const arn = JSON.stringify(restored.stack.resolve(restored.stack.table.tableArn));
    const streamArn = JSON.stringify(restored.stack.resolve(restored.stack.table.tableStreamArn));
    expect(JSON.parse(name)).toBe(RESTORED);
    expect(JSON.parse(streamArn)).toBe(RESTORED_STREAM);
    // The stage compared as one template: a nested stack's parameters and template URL change with what it is passed.
    const resources = (template: ReturnType<typeof synth>['template']) =>
      Object.fromEntries(
        Object.entries(template.toJSON().Resources as Record<string, any>).filter(
          ([, resource]) => resource.Type !== 'AWS::CloudFormation::Stack',
        ),
      );
    const before = JSON.stringify(resources(own.template));
    const after = resources(restored.template);
    expect(after[tableId]).toEqual(resources(own.template)[tableId]);
    expect(before.split(JSON.stringify({ Ref: tableId })).length).toBeGreaterThan(ROUTE_SAMPLE.length);
    // The own stage's template with its table references replaced by the restored table's: the same.
    const swapped = JSON.parse(
      before
        .replaceAll(JSON.stringify({ Ref: tableId }), name)
        .replaceAll(JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] }), arn)
        .replaceAll(JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] }), streamArn),
    );
    expect(canonical(after)).toEqual(canonical(swapped));
    expect(restored.template.toJSON().Outputs.TableName.Value).toBe(RESTORED);
  });
});

describe("the stage's seller (who every invoice names)", () => {
  it("gives every function of the service the stage file's seller as INVOICE_SELLER (JSON), each field changed by its -c key", () => {
    const seller = STAGE_FILES.prod.seller;
    for (const [context, expected] of [
      [{ stage: 'prod' }, seller],
      [
        { stage: 'prod', sellerTaxId: 'NL123456789B01' },
        { ...seller, taxId: 'NL123456789B01' },
      ],
    ] as const) {
      const functions = Object.entries(
        resourcesOf(synth({ context, routes: ROUTE_SAMPLE }).template, 'AWS::Lambda::Function'),
      )
        .map(([id, fn]) => [id, fn.Properties.Environment?.Variables ?? {}] as const)
        .filter(([, env]) => env.JWT_ISSUER !== undefined);
      expect(functions.length).toBeGreaterThan(ROUTE_SAMPLE.length);
      for (const [id, env] of functions) expect(JSON.parse(env.INVOICE_SELLER), `${id}`).toEqual(expected);
    }
  });
});

describe("the stage's invoice series (how many series each seller's numbers run in)", () => {
  it("gives every function of the service the stage file's invoiceSeries as INVOICE_SERIES, or the -c one; prod's fits the target", () => {
    // The target: 600 paid orders a second, each numbering transaction one order at worst, 50 a second an item.
    expect(600 / STAGE_FILES.prod.invoiceSeries).toBeLessThanOrEqual(50);
    for (const [context, series] of [
      [{ stage: 'prod' }, STAGE_FILES.prod.invoiceSeries],
      [{ stage: 'prod', invoiceSeries: '20' }, 20],
    ] as const) {
      const functions = Object.entries(
        resourcesOf(synth({ context, routes: ROUTE_SAMPLE }).template, 'AWS::Lambda::Function'),
      )
        .map(([id, fn]) => [id, fn.Properties.Environment?.Variables ?? {}] as const)
        .filter(([, env]) => env.JWT_ISSUER !== undefined);
      expect(functions.length).toBeGreaterThan(ROUTE_SAMPLE.length);
      for (const [id, env] of functions) expect(env.INVOICE_SERIES, `${id}`).toBe(String(series));
    }
  });

  it('refuses a count outside 1 to 26 (one letter a series)', () => {
    for (const invoiceSeries of ['0', '27'])
      expect(() => resolveStage((key) => ({ stage: 'prod', invoiceSeries })[key])).toThrow(/invoiceSeries/);
  });
});

describe("the stage's home country (the checkout's domestic-only shipping methods)", () => {
  it("gives every function of the service the stage file's shipping.homeCountry as SHIPPING_HOME_COUNTRY, or the -c one", () => {
    for (const [context, country] of [
      [{ stage: 'prod' }, STAGE_FILES.prod.shipping.homeCountry],
      [{ stage: 'prod', homeCountry: 'NL' }, 'NL'],
    ] as const) {
      const functions = Object.entries(
        resourcesOf(synth({ context, routes: ROUTE_SAMPLE }).template, 'AWS::Lambda::Function'),
      )
        .map(([id, fn]) => [id, fn.Properties.Environment?.Variables ?? {}] as const)
        .filter(([, env]) => env.JWT_ISSUER !== undefined);
      expect(functions.length).toBeGreaterThan(ROUTE_SAMPLE.length);
      for (const [id, env] of functions) expect(env.SHIPPING_HOME_COUNTRY, `${context.stage} ${id}`).toBe(country);
    }
  });

  it.each(['XX', 'us', 'USA', ''])('refuses %j in one line naming the setting and the file', (code) => {
    const file = structuredClone(STAGE_FILES.dev);
    file.shipping.homeCountry = code;
    expect(() => resolveStage((key) => ({ stage: 'dev' })[key], { ...STAGE_FILES, dev: file })).toThrow(
      /^stage dev: shipping\.homeCountry in infra\/stages\/dev\.ts: must be an ISO 3166-1 alpha-2 country code/,
    );
  });
});
