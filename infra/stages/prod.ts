import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { defineStage } from './schema.ts';

/**
 * prod. The account, domains, certificate, zone, sender and subscriber below are the
 * fictional Northwind values this repository ships with (444455556666 is an account id of
 * AWS's documentation): replace them once with your own (README "Deploying").
 */
export const stage = defineStage({
  name: 'prod',
  env: { account: '444455556666', region: 'us-east-1' },
  frontEnds: {
    admin: { domain: 'admin.northwind-tickets.com', files: 'none' },
    portal: { domain: 'my.northwind-tickets.com', files: 'none' },
  },
  certificateArn: 'arn:aws:acm:us-east-1:444455556666:certificate/8a3f0c91-6e2b-4d7a-b5c8-1e9f4a7d2b60',
  hostedZone: { id: 'Z08812345PROD0NWTKT0', name: 'northwind-tickets.com' },
  mail: { from: 'no-reply@northwind-tickets.com', sesIdentity: 'northwind-tickets.com' },
  alarms: { emails: ['ops@northwind-tickets.com'], topicArns: [] },
  extraOrigins: [],
  siteAuthMethod: 'legacy',
  logLevel: 'INFO',
  shipping: { homeCountry: 'US' },
  seller: { name: 'Ticketing Example Inc.', address: '1 Example Street, Springfield, US', taxId: 'US-00-0000000' },
  // Sized for the target: 600 paid orders a second over 16 series are 37.5 numbering transactions a second a
  // series at worst (one order each), under the 50 one counter item takes; 12 would be the least.
  invoiceSeries: 16,
  secretVersions: {},
  // The on-sale's warm throughput reaches the indexes one per deploy (a release changes one GSI at a time): raise
  // this by one a deploy up to 6, then drop it, before the sale (infra/README.md "Sized for the rush").
  table: { warmIndexes: 1 },
  policy: {
    jwtIssuer: 'urn:ticketing:prod',
    // The on-sale below takes ~3,200 requests a second on the sale path alone (holds, checkouts, webhooks of two
    // events) besides the pages' reads: half the account's 10,000 (infra/README.md "Sized for the rush").
    throttle: { rateLimit: 5000, burstLimit: 10000 },
    logRetention: RetentionDays.THREE_MONTHS,
    retainData: true,
    deletionProtection: false,
    reservedConcurrency: true,
    // The stage's target: two events at once, each 1,000 holds and 300 paid orders of two tickets a second.
    onSale: { events: 2, holdsPerSecond: 1000, paidOrdersPerSecond: 300 },
    tracing: true,
    canaryReleases: true,
    webAclLogs: true,
  },
});
