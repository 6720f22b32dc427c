import { ArnFormat, Aws, CfnRule, Fn, Stack } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { removalPolicyOf, type StageSettings } from './stages.ts';

/**
 * Rules of the AWS common rule set that only count (logged, not blocked), because the API's
 * own traffic trips them: bodies above 8 KB (photo uploads, bulk bodies; the API answers 413
 * itself), SVG waiver signatures (markup in a JSON body; the API sanitises them), and loopback
 * URLs in `redirect_uri` / `return_to` (dev's Vite origins; the API fetches no given URL).
 */
export const COMMON_RULES_COUNTED = [
  'SizeRestrictions_BODY',
  'CrossSiteScripting_BODY',
  'GenericRFI_BODY',
  'GenericRFI_QUERYARGUMENTS',
];

/** Requests per 5 minutes and client IP on the login and password routes, across both front ends. */
export const LOGIN_RATE_LIMIT = 100;

/** The key of the problem body the rate limit answers with. */
const TOO_MANY_ATTEMPTS = 'too-many-attempts';

/**
 * The routes the WAF rate-limits per IP: the public rows of the login areas (`/auth/...`,
 * `PUT /my-account`, the customers' login, and `POST /my-account/sign-up`) plus every password
 * route (change, forgot, reset). Derived from the route table, so a new login route is covered when it is added.
 */
export function rateLimitedRoutes(rows: readonly RouteRow[]): RouteRow[] {
  const loginArea = (row: RouteRow) =>
    row.path.startsWith('/auth/') || row.path === '/my-account' || row.path === '/my-account/sign-up';
  return rows.filter((row) => (row.auth.kind === 'public' && loginArea(row)) || row.path.includes('password'));
}

/**
 * The web ACL both front ends' distributions share: AWS's managed rules (IP reputation, the
 * common rule set, known bad inputs) and a per-IP rate limit on the login and password
 * routes. CloudFront-scoped, which AWS creates only in us-east-1: a template rule
 * (`<id>Region`) stops the deploy elsewhere (then create one there and set `webAclArn` in the stage file).
 * Returns the ACL's ARN.
 */
export function frontEndWebAcl(
  scope: Construct,
  id: string,
  settings: StageSettings,
  routes: readonly RouteRow[],
): string {
  new CfnRule(scope, `${id}Region`, {
    assertions: [
      {
        assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
        assertDescription:
          'A CloudFront web ACL can only be created in us-east-1: deploy there, or set webAclArn in infra/stages/<stage>.ts.',
      },
    ],
  });
  const rules: CfnWebACL.RuleProperty[] = [
    managedRule(settings, 'AWSManagedRulesAmazonIpReputationList', 0),
    managedRule(settings, 'AWSManagedRulesCommonRuleSet', 1, COMMON_RULES_COUNTED),
    managedRule(settings, 'AWSManagedRulesKnownBadInputsRuleSet', 2),
  ];
  const limited = rateLimitedRoutes(routes);
  if (limited.length > 0) rules.push(loginRateLimitRule(settings, limited, 3));
  const acl = new CfnWebACL(scope, id, {
    scope: 'CLOUDFRONT',
    defaultAction: { allow: {} },
    description: `ticketing-${settings.name}: managed rules and a login rate limit on both front ends`,
    rules,
    customResponseBodies: {
      [TOO_MANY_ATTEMPTS]: {
        contentType: 'APPLICATION_JSON',
        content: JSON.stringify({
          type: '/problems/rate-limited',
          title: 'Too many requests',
          status: 429,
          detail: 'Too many login or password attempts from this address; try again in a few minutes.',
        }),
      },
    },
    visibilityConfig: visibility(settings, 'WebAcl'),
  });
  if (settings.webAclLogs) logRequests(scope, `${id}Logs`, settings, acl);
  return acl.attrArn;
}

/** The headers a WAF log line never shows: the tokens (bearer and cookie) of the request. */
export const WAF_REDACTED_HEADERS = ['authorization', 'cookie'];

/**
 * WAF's name rule: a CloudWatch log group it logs to must be named `aws-waf-logs-…`
 * (https://docs.aws.amazon.com/waf/latest/developerguide/logging-cw-logs.html), so CloudFormation
 * cannot name it. The group is retained with the stage's data, and a fixed name would make the
 * next create of the stage fail with "already exists": the name ends with the id of the stack
 * that made it (the UUID of its stack ARN, new for every created stack).
 */
export const wafLogGroupName = (settings: StageSettings): string =>
  `aws-waf-logs-ticketing-${settings.name}-${Fn.select(2, Fn.split('/', Aws.STACK_ID))}`;

/**
 * Every request the web ACL saw, with the rule that decided it, to CloudWatch Logs (staging
 * and prod: the stage file's policy `webAclLogs`), kept as long as the stage's other logs.
 */
function logRequests(scope: Construct, id: string, settings: StageSettings, acl: CfnWebACL): void {
  const logGroupName = wafLogGroupName(settings);
  const logs = new LogGroup(scope, id, {
    logGroupName,
    retention: settings.logRetention,
    removalPolicy: removalPolicyOf(settings),
  });
  const logging = new CfnLoggingConfiguration(scope, `${id}Configuration`, {
    resourceArn: acl.attrArn,
    // WAF wants the log group's ARN without LogGroup.logGroupArn's `:*`.
    logDestinationConfigs: [
      Stack.of(scope).formatArn({
        service: 'logs',
        resource: 'log-group',
        resourceName: logGroupName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    ],
    redactedFields: WAF_REDACTED_HEADERS.map((name) => ({ singleHeader: { Name: name } })),
  });
  logging.node.addDependency(logs);
}

/** CloudWatch metrics and sampled requests per rule, named `ticketing-<stage>-<rule>`. */
function visibility(settings: StageSettings, name: string): CfnWebACL.VisibilityConfigProperty {
  return {
    cloudWatchMetricsEnabled: true,
    sampledRequestsEnabled: true,
    metricName: `ticketing-${settings.name}-${name}`,
  };
}

/** One of AWS's managed rule groups, as it comes, except the rules named in `countOnly`. */
function managedRule(
  settings: StageSettings,
  name: string,
  priority: number,
  countOnly: string[] = [],
): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name,
        ruleActionOverrides: countOnly.length
          ? countOnly.map((rule) => ({ name: rule, actionToUse: { count: {} } }))
          : undefined,
      },
    },
    visibilityConfig: visibility(settings, name),
  };
}

/** Blocks an IP above LOGIN_RATE_LIMIT requests to the `limited` routes in 5 minutes, with a 429 problem. */
function loginRateLimitRule(settings: StageSettings, limited: RouteRow[], priority: number): CfnWebACL.RuleProperty {
  const statements = limited.map(matchRoute);
  return {
    name: 'LoginRateLimit',
    priority,
    action: {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: TOO_MANY_ATTEMPTS,
          responseHeaders: [{ name: 'retry-after', value: '300' }],
        },
      },
    },
    statement: {
      rateBasedStatement: {
        limit: LOGIN_RATE_LIMIT,
        evaluationWindowSec: 300,
        aggregateKeyType: 'IP',
        scopeDownStatement: statements.length === 1 ? statements[0] : { orStatement: { statements } },
      },
    },
    visibilityConfig: visibility(settings, 'LoginRateLimit'),
  };
}

/** The request is the route's: its exact path (URL-decoded) and method. */
function matchRoute(row: RouteRow): CfnWebACL.StatementProperty {
  return {
    andStatement: {
      statements: [
        {
          byteMatchStatement: {
            fieldToMatch: { uriPath: {} },
            positionalConstraint: 'EXACTLY',
            searchString: `${API_PREFIX}${row.path}`,
            textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
          },
        },
        {
          byteMatchStatement: {
            fieldToMatch: { method: {} },
            positionalConstraint: 'EXACTLY',
            searchString: row.method,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
      ],
    },
  };
}
