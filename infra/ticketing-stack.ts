import { CfnOutput, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { routes as routeTable, type RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { signingKeySecretName } from '#shared/auth/key-set';
import { stripeSecretName } from '#shared/selling/domain/payment-processor';
import { constructId } from './construct-id.ts';
import { CustomerIdentity } from './customer-identity.ts';
import { FrontEnds } from './front-ends.ts';
import { TicketingHttpApi } from './http-api.ts';
import { IdentityProvider } from './identity-provider.ts';
import { MigrationRunner } from './migrations.ts';
import { Operations } from './operations.ts';
import { PhotoStore } from './photo-store.ts';
import { RouteFunction } from './route-function.ts';
import { RouteGroupStack } from './route-group.ts';
import { type StageSettings, StageSettingsError } from './stages.ts';
import { stageTable } from './table.ts';
import { Webhooks } from './webhooks.ts';
import { Reservations } from './reservations.ts';
import { PaidOrderIssuing } from './paid-order-issuing.ts';
import { webhookSecretsKey } from './webhook-secrets-key.ts';

export interface TicketingStackProps extends StackProps {
  settings: StageSettings;
  /** The route table to deploy; tests pass synthetic rows to exercise every `uses`. */
  routes?: readonly RouteRow[];
  /** Where `<row.handler>.ts` files live; defaults to `functions/`. */
  functionsDir?: string;
}

/**
 * One stage of the API, derived from the route table: one function per row, with
 * exactly the grants the row's `uses` names. Optional resources (photos bucket, the
 * administrators' and the customers' Cognito pools) exist only when some row uses them.
 */
export class TicketingStack extends Stack {
  readonly functions: ReadonlyMap<RouteRow, RouteFunction>;
  /** The table the functions use: the stage's own, or a restored one (infra/table.ts stageTable). */
  readonly table: ITableV2;
  /** The table stream's consumer, the dispatcher and their queue (infra/webhooks.ts). */
  readonly webhooks: Webhooks;
  /** The reservations' lapsing job and its schedule (infra/reservations.ts). */
  readonly reservations: Reservations;
  readonly issuing: PaidOrderIssuing;
  /** Alarms, their topic and the dashboard (a nested stack). */
  readonly operations: Operations;

  constructor(scope: Construct, id: string, props: TicketingStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const rows = props.routes ?? routeTable;
    const anyUses = (key: keyof RouteRow['uses']) => rows.some((row) => row.uses[key]);
    if (settings.siteAuthMethod === 'idp' && !anyUses('identityProvider')) {
      throw new StageSettingsError(
        `stage ${settings.name}: SITE_AUTH_METHOD=idp needs routes that use the identity provider, and no row does`,
      );
    }

    const table = stageTable(this, 'Table', settings);
    this.table = table;
    // Seals the webhooks' signing secrets in the table: only the functions that create, rotate or send read it.
    const webhookKey = webhookSecretsKey(this, 'WebhookSecretsKey', settings);
    const migrations = new MigrationRunner(this, 'Migrations', { table, settings });
    // Browsers reach the API only through the front ends' `/api/*` (same origin, first-party
    // cookie); every origin-dependent value derives from their origins (infra/front-ends.ts).
    const customDomains = Object.values(settings.frontEnds).flatMap((frontEnd) =>
      frontEnd.domainName ? [`https://${frontEnd.domainName}`] : [],
    );
    const http = new TicketingHttpApi(this, 'Http', {
      settings,
      corsOrigins: [...customDomains, ...settings.extraOrigins],
    });
    const frontEnds = new FrontEnds(this, 'FrontEnds', { settings, api: http.api, routes: rows });
    // Per audience (shared/http/cors.ts): admin routes accept the admin front end, customer routes
    // the portal; the extra origins (dev: a Vite server proxying /api) go to both.
    const adminOrigins = [frontEnds.admin.origin, ...settings.extraOrigins];
    const portalOrigins = [frontEnds.portal.origin, ...settings.extraOrigins];
    const photos = anyUses('photos') ? new PhotoStore(this, 'Photos', { settings }) : undefined;
    const idp = anyUses('identityProvider')
      ? new IdentityProvider(this, 'IdentityProvider', { settings, allowedOrigins: adminOrigins })
      : undefined;
    const customers = anyUses('customerIdentity')
      ? new CustomerIdentity(this, 'CustomerIdentity', { settings })
      : undefined;

    // The token signing keys (README "Rotating the signing key"): created and rotated by
    // `npm run keys`, imported by name so the secret exists before the first deploy and is
    // never deleted with the stack. Not a Secret construct here, so no cdk-nag SMG4: its
    // rotation is the runbook's, with a verification window Secrets Manager cannot know.
    const signingKeys = Secret.fromSecretNameV2(this, 'SigningKeys', signingKeySecretName(settings.name));
    // Only the public JWKS reaches the environment (a dynamic reference resolved at deploy
    // time): readable by anyone with lambda:GetFunctionConfiguration, and that is fine for
    // public keys; the private keys are fetched at run time by the issuing functions only.
    // CloudFormation re-resolves a dynamic reference only when the template changes, so the
    // reference is pinned to the version the stage file names (`secretVersions.signingKeys`,
    // written there by `npm run keys`): the commit of a rotation changes every function's
    // environment, and a later deploy without any flag keeps it.
    const publicKeys = SecretValue.secretsManager(signingKeys.secretName, {
      jsonField: 'jwks',
      ...(settings.signingKeysVersion ? { versionId: settings.signingKeysVersion } : {}),
    });

    // Stripe's secret key and webhook secret (`npm run keys -- stripe`), imported by name like the signing keys;
    // read at run time by the payment rows only. The publishable key is the stage file's.
    const stripeSecret = Secret.fromSecretNameV2(this, 'StripeSecret', stripeSecretName(settings.name));

    const environment = {
      STAGE: settings.name,
      SITE_AUTH_METHOD: settings.siteAuthMethod,
      JWT_ISSUER: settings.jwtIssuer,
      JWT_PUBLIC_KEYS: publicKeys.unsafeUnwrap(),
      ADMIN_ORIGINS: adminOrigins.join(','),
      PORTAL_ORIGINS: portalOrigins.join(','),
      ADMIN_UI_URL: frontEnds.admin.origin,
      // Requests that skipped CloudFront (straight to execute-api) are refused (shared/http/origin-verify.ts);
      // the values are read from this secret at run time, never put in the configuration.
      ORIGIN_VERIFY_SECRET: frontEnds.originVerifySecret.secretArn,
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_SERVICE_NAME: 'ticketing-api',
      // The checkout's domestic country (shared/selling/services/shipping-settings.ts).
      SHIPPING_HOME_COUNTRY: settings.homeCountry,
      // Who every invoice names (shared/selling/services/invoice-seller.ts).
      INVOICE_SELLER: JSON.stringify(settings.seller),
      // How many series its numbers run in (the same file).
      INVOICE_SERIES: String(settings.invoiceSeries),
      ...(settings.stripePublishableKey ? { STRIPE_PUBLISHABLE_KEY: settings.stripePublishableKey } : {}),
    };

    const functions = new Map<RouteRow, RouteFunction>();
    // One nested stack per route group (the handler's directory), so each stack stays far from
    // CloudFormation's 500 resources and adding a route touches only its group's stack.
    const groups = new Map<string, RouteGroupStack>();
    const groupOf = (row: RouteRow) => {
      const name = routeGroup(row);
      const existing = groups.get(name);
      if (existing) return existing;
      const group = new RouteGroupStack(this, `Routes${constructId(name)}`, { settings, group: name });
      groups.set(name, group);
      return group;
    };
    for (const row of rows) {
      const fn = new RouteFunction(groupOf(row), constructId(row.handler), {
        row,
        api: http.api,
        settings,
        environment,
        functionsDir: props.functionsDir,
      });
      // Grants come only from the row's `uses`.
      if (row.uses.table) fn.bindTable(table, row.uses);
      if (row.uses.photos && photos) fn.bindPhotos(photos);
      if (row.uses.email) fn.bindEmail(settings.emailFrom, frontEnds.portal.origin);
      if (row.uses.identityProvider && idp) fn.bindIdentityProvider(idp, row.uses.identityProvider);
      if (row.uses.customerIdentity && customers) fn.bindCustomerIdentity(customers, row.uses.customerIdentity);
      if (row.uses.signingKey) fn.bindSigningKey(signingKeys);
      if (row.uses.webhookSecrets) fn.bindWebhookSecretsKey(webhookKey);
      if (row.uses.payments) fn.bindPayments(stripeSecret);
      fn.bindOriginVerify(frontEnds.originVerifySecret);
      groupOf(row).release(fn);
      functions.set(row, fn);
    }
    this.functions = functions;
    // The webhooks' functions serve no request: no admin UI links to build, no CloudFront origin to check.
    const { ADMIN_UI_URL: _adminUi, ORIGIN_VERIFY_SECRET: _originVerify, ...serviceEnvironment } = environment;
    this.webhooks = new Webhooks(this, 'Webhooks', {
      settings,
      table,
      environment: serviceEnvironment,
      secretsKey: webhookKey,
      portalUrl: frontEnds.portal.origin,
    });
    // Reservations lapse by themselves (infra/reservations.ts).
    this.reservations = new Reservations(this, 'Reservations', {
      settings,
      table,
      environment: serviceEnvironment,
      stripeSecret,
      portalUrl: frontEnds.portal.origin,
    });
    // A paid order's tickets, issued behind the Stripe webhook's answer (infra/paid-order-issuing.ts).
    this.issuing = new PaidOrderIssuing(this, 'Issuing', {
      settings,
      table,
      environment: serviceEnvironment,
      stripeSecret,
      portalUrl: frontEnds.portal.origin,
    });
    this.operations = new Operations(this, 'Operations', {
      settings,
      api: http.api,
      table,
      functions,
      serviceName: environment.POWERTOOLS_SERVICE_NAME,
      sendsEmail: anyUses('email'),
      migrationRunner: migrations.function,
      webhooks: this.webhooks,
      issuing: this.issuing,
    });

    // Once the release is live: the table (the stage's own, also when it serves a restored one), every
    // route group (their canaries finished), the webhooks and the alarms (infra/migrations.ts).
    migrations.runAfter([this.node.findChild('Table'), ...groups.values(), this.webhooks, this.operations]);

    new CfnOutput(this, 'ApiUrl', {
      value: http.url,
      description: `Execute-api base URL (${API_PREFIX} included); refuses calls that skip the front ends`,
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
  }
}

/** A route's group, and so its stack: the directory of its handler (`tickets/check-in` → `tickets`). */
export const routeGroup = (row: Pick<RouteRow, 'handler'>): string => row.handler.split('/')[0]!;
