import { Duration, Validations } from 'aws-cdk-lib';
import {
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  PriceClass,
  ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { fileBehaviour, PRIVATE_BUCKET } from './private-files.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';

/**
 * The bucket also holds waiver signatures (`signatures/…`), which are not public: the
 * distribution serves only `photos/…` and answers 404 for any other key. A CloudFront
 * Function (JS 2.0 runtime) at viewer request; kept as source text so a test can run it.
 */
export const PUBLIC_PREFIX = '/photos/';
export const PHOTOS_ONLY_FUNCTION = `function handler(event) {
  if (event.request.uri.indexOf('${PUBLIC_PREFIX}') !== 0) return { statusCode: 404, statusDescription: 'Not Found' };
  return event.request;
}`;

/** How long an overwritten or deleted object stays recoverable as a noncurrent version. */
export const NONCURRENT_DAYS_PROD = 90;
export const NONCURRENT_DAYS_OTHER = 7;
export const PHOTO_CSP = "default-src 'none'; sandbox";

/**
 * Attendee profile photos: a private bucket, readable by the public only through
 * CloudFront with Origin Access Control (the spec's `profilePhoto` is a public URL).
 * Uploads and deletes go through the API's functions, so the bucket needs no CORS.
 */
export class PhotoStore extends Construct {
  readonly bucket: Bucket;
  /** `https://<distribution>`; a photo's URL is this plus `/<key>`. */
  readonly baseUrl: string;

  constructor(scope: Construct, id: string, { settings }: { settings: StageSettings }) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      removalPolicy: removalPolicyOf(settings),
      // Non-prod stacks must be deletable with photos in them (adds a CDK helper function).
      autoDeleteObjects: !settings.retainData,
      // Every stage: signed waivers and photos survive an overwrite or a delete (a bug, a wrong
      // bulk call) as noncurrent versions, 90 days in prod and 7 elsewhere (enough to undo a
      // test's mistake, little to pay); the API never reads old versions. A non-prod stack
      // still deletes cleanly: the auto-delete helper removes every version.
      versioned: true,
      lifecycleRules: [
        {
          noncurrentVersionExpiration: Duration.days(
            settings.retainData ? NONCURRENT_DAYS_PROD : NONCURRENT_DAYS_OTHER,
          ),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
    });

    // Objects carry the type sniffed from their bytes (shared/domain/image-type.ts); nosniff stops
    // a browser from second-guessing it, and the sandboxing CSP keeps a photo opened on its own
    // from running anything even if a file passed the sniffing with markup inside.
    const photoHeaders = new ResponseHeadersPolicy(this, 'PhotoHeaders', {
      comment: `ticketing-${settings.name} photos: nosniff, sandboxed`,
      securityHeadersBehavior: {
        contentTypeOptions: { override: true },
        contentSecurityPolicy: { contentSecurityPolicy: PHOTO_CSP, override: true },
      },
    });

    const distribution = new Distribution(this, 'Cdn', {
      comment: `ticketing-${settings.name} profile photos`,
      defaultBehavior: {
        ...fileBehaviour(S3BucketOrigin.withOriginAccessControl(this.bucket), photoHeaders),
        functionAssociations: [
          {
            eventType: FunctionEventType.VIEWER_REQUEST,
            function: new CloudFrontFunction(this, 'PhotosOnly', {
              code: FunctionCode.fromInline(PHOTOS_ONLY_FUNCTION),
              runtime: FunctionRuntime.JS_2_0,
              comment: 'Serve only photos/ keys; signatures stay private',
            }),
          },
        ],
      },
      priceClass: PriceClass.PRICE_CLASS_100,
    });
    this.baseUrl = `https://${distribution.distributionDomainName}`;

    const acknowledge = (id: string, reason: string) => Validations.of(this).acknowledge({ id, reason });
    acknowledge(
      'AwsSolutions-S1',
      'Public, non-sensitive profile images; uploads and deletes are logged by the API functions.',
    );
    acknowledge('AwsSolutions-CFR1', 'Attendees are worldwide; no geographic restriction applies to their photos.');
    acknowledge(
      'AwsSolutions-CFR2',
      'Static, read-only images behind OAC; a WAF web ACL would cost more than the risk it removes.',
    );
    acknowledge('AwsSolutions-CFR3', 'Public, non-sensitive profile images: CloudFront access logs are not needed.');
    acknowledge(
      'AwsSolutions-CFR4',
      'Default *.cloudfront.net certificate until the stage has a custom domain with an ACM certificate.',
    );
  }
}
