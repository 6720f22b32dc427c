import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  type IOrigin,
  type IResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { BlockPublicAccess, BucketEncryption, type BucketProps, ObjectOwnership } from 'aws-cdk-lib/aws-s3';

/**
 * Every bucket of the stage (front-end files, access logs, photos): no public access, S3-managed
 * encryption, TLS only, and objects owned by the bucket (no ACLs). The public reads them only
 * through CloudFront with Origin Access Control.
 */
export const PRIVATE_BUCKET = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
  encryption: BucketEncryption.S3_MANAGED,
  enforceSSL: true,
} satisfies BucketProps;

/**
 * A CloudFront behaviour serving a private bucket's files (`origin`): HTTPS (plain HTTP is
 * redirected), GET and HEAD only, cached by CloudFront's optimized policy, with `headers`.
 */
export function fileBehaviour(origin: IOrigin, headers: IResponseHeadersPolicy): BehaviorOptions {
  return {
    origin,
    viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
    allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
    cachePolicy: CachePolicy.CACHING_OPTIMIZED,
    responseHeadersPolicy: headers,
  };
}
