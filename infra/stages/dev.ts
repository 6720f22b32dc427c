import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { defineStage } from './schema.ts';

/**
 * dev: a developer's stage, in whatever account the credentials name (no `env`), with the
 * placeholder pages and sender; staging and prod refuse such placeholders (infra/stages.ts).
 */
export const stage = defineStage({
  name: 'dev',
  frontEnds: { admin: { files: 'placeholder' }, portal: { files: 'placeholder' } },
  mail: { from: 'no-reply@dev.tickets.example.com' },
  alarms: { emails: [], topicArns: [] },
  // An SPA's Vite dev server (either loopback name) may call a deployed dev stack.
  extraOrigins: ['http://localhost:5173', 'http://127.0.0.1:5173'],
  siteAuthMethod: 'legacy',
  logLevel: 'DEBUG',
  shipping: { homeCountry: 'US' },
  seller: { name: 'Ticketing Example Inc.', address: '1 Example Street, Springfield, US', taxId: 'US-00-0000000' },
  // One series: dev's numbers read 2027-A-000001, 2027-A-000002...; a dev stack sees no on-sale.
  invoiceSeries: 1,
  secretVersions: {},
  table: {},
  policy: {
    jwtIssuer: 'urn:ticketing:dev',
    throttle: { rateLimit: 50, burstLimit: 100 },
    logRetention: RetentionDays.ONE_WEEK,
    retainData: false,
    deletionProtection: false,
    reservedConcurrency: false,
    tracing: false,
    canaryReleases: false,
    webAclLogs: false,
  },
});
