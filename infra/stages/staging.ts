import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { defineStage } from './schema.ts';

/**
 * staging. The account, domains, certificate, zone, sender and subscriber below are the
 * fictional Northwind values this repository ships with (111122223333 is an account id of
 * AWS's documentation): replace them once with your own (README "Deploying").
 */
export const stage = defineStage({
  name: 'staging',
  env: { account: '111122223333', region: 'us-east-1' },
  frontEnds: {
    admin: { domain: 'admin.staging.northwind-tickets.com', files: 'none' },
    portal: { domain: 'my.staging.northwind-tickets.com', files: 'none' },
  },
  certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/5d1c6a2e-0b7f-4c1e-9a43-2f6d8e1b7c30',
  hostedZone: { id: 'Z04417722STAGING0NWT', name: 'staging.northwind-tickets.com' },
  mail: { from: 'no-reply@staging.northwind-tickets.com', sesIdentity: 'staging.northwind-tickets.com' },
  alarms: { emails: ['ops-staging@northwind-tickets.com'], topicArns: [] },
  extraOrigins: [],
  siteAuthMethod: 'legacy',
  logLevel: 'INFO',
  shipping: { homeCountry: 'US' },
  seller: { name: 'Ticketing Example Inc.', address: '1 Example Street, Springfield, US', taxId: 'US-00-0000000' },
  // Enough series that a rehearsal exercises several (prod's count is sized for the target).
  invoiceSeries: 4,
  secretVersions: {},
  // The on-sale's warm throughput reaches the indexes one per deploy (a release changes one GSI at a time): raise
  // this by one a deploy up to 6, then drop it, before the sale (infra/README.md "Sized for the rush").
  table: { warmIndexes: 1 },
  policy: {
    jwtIssuer: 'urn:ticketing:staging',
    throttle: { rateLimit: 200, burstLimit: 400 },
    logRetention: RetentionDays.ONE_MONTH,
    retainData: false,
    deletionProtection: false,
    reservedConcurrency: true,
    // A rehearsal of prod's rush at a tenth, on one event: the sale path's reservations and warm table exercised
    // by every deploy without paying for prod's.
    onSale: { events: 1, holdsPerSecond: 100, paidOrdersPerSecond: 30 },
    tracing: true,
    canaryReleases: true,
    webAclLogs: true,
  },
});
