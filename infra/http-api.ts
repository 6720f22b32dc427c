import { Duration } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  CORS_ALLOWED_HEADERS,
  CORS_ALLOWED_METHODS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE_SECONDS,
} from '#shared/http/cors';
import { API_PREFIX } from '#shared/api-prefix';
import { removalPolicyOf, type StageSettings } from './stages.ts';

export interface TicketingHttpApiProps {
  settings: StageSettings;
  /**
   * Origins API Gateway answers preflights for: the literal ones only (extra origins,
   * custom domains). A distribution's own *.cloudfront.net origin cannot be listed (the
   * distribution's `/api/*` origin is this API: a dependency cycle) and needs no CORS:
   * its pages call `/api/*` on their own origin.
   */
  corsOrigins: readonly string[];
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

  constructor(scope: Construct, id: string, { settings, corsOrigins }: TicketingHttpApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      apiName: `ticketing-${settings.name}`,
      createDefaultStage: false,
      // API Gateway answers preflights itself (no Lambda invocation) and sets these
      // headers on every response; credentials because the auth cookie rides along.
      // The same definition as the middy stack and the local server (shared/http/cors.ts).
      corsPreflight:
        corsOrigins.length === 0
          ? undefined
          : {
              allowOrigins: [...corsOrigins],
              allowCredentials: true,
              allowHeaders: CORS_ALLOWED_HEADERS,
              allowMethods: CORS_ALLOWED_METHODS.map((method) => CorsHttpMethod[method as keyof typeof CorsHttpMethod]),
              exposeHeaders: CORS_EXPOSED_HEADERS,
              maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
            },
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: removalPolicyOf(settings),
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

  /** Base URL of the API on its execute-api host, `/api/v2` included (refused without CloudFront's origin header). */
  get url(): string {
    return `${this.api.apiEndpoint}${API_PREFIX}`;
  }
}
