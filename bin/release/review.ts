import { createHash } from 'node:crypto';
import { fullDiff, ResourceImpact } from '@aws-cdk/cloudformation-diff';

/**
 * What a release may not do to a stage, judged on the synthesised templates against the last
 * released ones (test/infra/release/, `npm run release:snapshot`) with `@aws-cdk/cloudformation-diff`,
 * the library behind `cdk diff`, which knows which property changes replace a resource:
 * - replace or delete a stateful resource (the table, the user pools, the buckets, the secrets,
 *   anything retained: its data would be gone, or orphaned beside an empty new one);
 * - change more than one GSI of a table: CloudFormation creates or deletes one per update
 *   (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html);
 * - replace a resource with a custom name: CloudFormation refuses, "cannot update a stack when a
 *   custom-named resource requires replacing" (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-name.html).
 * An intended one is accepted by refreshing the snapshot in the same commit.
 */

/** A CloudFormation resource as a template declares it (the fields read here). */
interface TemplateResource {
  Type: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Properties?: Record<string, unknown>;
}
export interface Template {
  Resources?: Record<string, TemplateResource>;
  [section: string]: unknown;
}
/** Each stack's template, by stack name. */
export type Templates = Record<string, Template>;

/** Types whose replacement or deletion loses data, whatever their deletion policy. */
const STATEFUL = new Set([
  'AWS::DynamoDB::GlobalTable',
  'AWS::DynamoDB::Table',
  'AWS::Cognito::UserPool',
  'AWS::S3::Bucket',
  'AWS::SecretsManager::Secret',
]);
/** Properties that give a resource a name of its own (CloudFormation's "custom name"). */
const NAME_PROPERTIES = [
  'FunctionName',
  'AlarmName',
  'TopicName',
  'TableName',
  'QueueName',
  'BucketName',
  'LogGroupName',
  'RoleName',
  'DashboardName',
  'Name',
];

const isStateful = (resource: TemplateResource | undefined) =>
  !!resource && (STATEFUL.has(resource.Type) || String(resource.DeletionPolicy ?? '').startsWith('Retain'));

const customName = (resource: TemplateResource | undefined) =>
  NAME_PROPERTIES.find((property) => resource?.Properties?.[property] !== undefined);

/** The GSIs of a table resource, by name, as declared (their keys and projection). */
function indexes(resource: TemplateResource | undefined): Map<string, string> {
  const declared = (resource?.Properties?.GlobalSecondaryIndexes ?? []) as { IndexName: string }[];
  return new Map(declared.map((index) => [index.IndexName, JSON.stringify(index)]));
}

/** Every problem of releasing `next` over `released`, one line each (empty: safe). */
export function reviewRelease(released: Templates, next: Templates): string[] {
  const problems: string[] = [];
  for (const [stack, before] of Object.entries(released)) {
    const after = next[stack];
    if (!after) {
      problems.push(`${stack}: the stack is gone, and every resource in it`);
      continue;
    }
    fullDiff(before, after).resources.forEachDifference((id, change) => {
      const old = before.Resources?.[id];
      const where = `${stack} ${id} (${change.resourceType})`;
      const replaced =
        change.changeImpact === ResourceImpact.WILL_REPLACE || change.changeImpact === ResourceImpact.MAY_REPLACE;
      if (change.isRemoval && isStateful(old)) problems.push(`${where}: a stateful resource is deleted`);
      else if (replaced && isStateful(old)) problems.push(`${where}: a stateful resource is replaced`);
      else if (replaced && customName(old))
        problems.push(`${where}: replaced while it keeps its custom ${customName(old)} (CloudFormation refuses)`);
      if (change.isRemoval || change.isAddition) return;
      const [was, is] = [indexes(old), indexes(after.Resources?.[id])];
      const changed = new Set([...was.keys(), ...is.keys()].filter((name) => was.get(name) !== is.get(name)));
      if (changed.size > 1)
        problems.push(
          `${where}: ${changed.size} GSIs change (${[...changed].join(', ')}); CloudFormation changes one per update`,
        );
    });
  }
  return problems;
}

/**
 * A template as the snapshot keeps it: only the resources a rule above can be about (the
 * stateful and retained ones, and those with a custom name), each property as a short hash of
 * its value (the diff needs to know which property changed, not to what), the GSIs as declared,
 * and nothing of what changes with every build (asset hashes, code locations).
 */
export function normaliseTemplate(template: Template): Template {
  const stable = (value: unknown) => JSON.stringify(value).replace(/[a-f0-9]{64}/g, '<hash>');
  const digest = (value: unknown) => `<${createHash('sha1').update(stable(value)).digest('hex').slice(0, 10)}>`;
  const kept = Object.entries(template.Resources ?? {})
    .filter(([, resource]) => isStateful(resource) || customName(resource))
    .map(([id, resource]) => {
      const properties = Object.fromEntries(
        Object.entries(resource.Properties ?? {}).map(([key, value]) => [
          key,
          key === 'GlobalSecondaryIndexes' ? JSON.parse(stable(value)) : key === 'Code' ? '<asset>' : digest(value),
        ]),
      );
      const { Type, DeletionPolicy, UpdateReplacePolicy } = resource;
      return [id, { Type, ...(DeletionPolicy ? { DeletionPolicy, UpdateReplacePolicy } : {}), Properties: properties }];
    });
  return { Resources: Object.fromEntries(kept) };
}
