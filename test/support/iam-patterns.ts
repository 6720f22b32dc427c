import { wildcardPattern } from '#shared/domain/wildcard';

/**
 * Whether a partition key matches one of a row's `tableWrites` patterns, as IAM's `StringLike`
 * does with `*` (any run; the patterns use no `?`): what the deployed `dynamodb:LeadingKeys`
 * condition allows, checked locally where IAM does not run.
 */
export function leadingKeyAllowed(partitionKey: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => wildcardPattern(pattern, { any: '*' }).matches(partitionKey));
}
