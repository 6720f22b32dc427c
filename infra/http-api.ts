import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_PREFIX, type RouteRow } from '#shared/routes';
import type { StageSettings } from './stages.ts';

export interface TicketingHttpApiProps {
  settings: StageSettings;
  /** The route rows: CORS allows exactly the methods they use. */
  routes: readonly RouteRow[];
}

/** HTTP API fields worth keeping per request (HTTP API `$context` variables, not REST ones). */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integrationErrorMessage',
  userAgent: '$context.identity.userAgent',
};

/**
 * The HTTP API with its `$default` stage. The stage is declared explicitly (not
 * `createDefaultStage`) because the implicit one takes no throttling or access logs.
 */
export class TicketingHttpApi extends Construct {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, { settings, routes }: TicketingHttpApiProps) {
    super(scope, id);
    const methods = [...new Set(routes.map((row) => row.method))];
    this.api = new HttpApi(this, 'Api', {
      apiName: `ticketing-${settings.name}`,
      createDefaultStage: false,
      // API Gateway answers preflights itself (no Lambda invocation) and sets these
      // headers on every response; credentials because the auth cookie rides along.
      corsPreflight: {
        allowOrigins: settings.allowedOrigins,
        allowCredentials: true,
        allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-requested-with'],
        allowMethods: methods.map((method) => CorsHttpMethod[method]),
        // Read by the SPA: 429 back-off, and the deprecation notices of old routes.
        exposeHeaders: ['retry-after', 'deprecation', 'link'],
        maxAge: Duration.hours(1),
      },
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: settings.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
  }

  /** Base URL of the API, `/api/v2` included. */
  get url(): string {
    return `${this.api.apiEndpoint}${API_PREFIX}`;
  }
}
