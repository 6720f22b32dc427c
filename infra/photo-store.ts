import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AllowedMethods, CachePolicy, Distribution, PriceClass, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { StageSettings } from './stages.ts';

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
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      // Non-prod stacks must be deletable with photos in them (adds a CDK helper function).
      autoDeleteObjects: !settings.retainData,
    });

    const distribution = new Distribution(this, 'Cdn', {
      comment: `ticketing-${settings.name} profile photos`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      },
      priceClass: PriceClass.PRICE_CLASS_100,
    });
    this.baseUrl = `https://${distribution.distributionDomainName}`;

    const acknowledge = (id: string, reason: string) => Validations.of(this).acknowledge({ id, reason });
    acknowledge('AwsSolutions-S1', 'Public, non-sensitive profile images; uploads and deletes are logged by the API functions.');
    acknowledge('AwsSolutions-CFR1', 'Attendees are worldwide; no geographic restriction applies to their photos.');
    acknowledge('AwsSolutions-CFR2', 'Static, read-only images behind OAC; a WAF web ACL would cost more than the risk it removes.');
    acknowledge('AwsSolutions-CFR3', 'Public, non-sensitive profile images: CloudFront access logs are not needed.');
    acknowledge('AwsSolutions-CFR4', 'Default *.cloudfront.net certificate until the stage has a custom domain with an ACM certificate.');
  }
}
