import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type CfnElement, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { type RouteRow, routes } from '#shared/routes';
import { createApp } from '../../infra/app.ts';
import { ROUTE_TAG } from '../../infra/route-function.ts';

// Template tests skip esbuild (one real `cdk synth` proves the bundles build) and CDK's
// built-in template validation. cdk-nag still runs: a finding fails the synth.
process.env.CDK_VALIDATION = 'false';

/** The feature flags of cdk.json, so tests see the template `cdk synth` produces. */
const FLAGS = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

/** Stub handlers of the synthetic route rows. */
export const FIXTURE_FUNCTIONS = fileURLToPath(new URL('./fixtures/functions', import.meta.url));
/** Stand-in documentation files: generating the real ones takes seconds (infra/api-docs.ts; one test does). */
export const FIXTURE_API_DOCS = fileURLToPath(new URL('./fixtures/api-docs', import.meta.url));

/**
 * One row per distinct `uses` entry: every kind of grant and binding (8 of the 99 rows), at a fraction of the synth
 * time. For a test of a setting every function takes alike: a build of the whole route table takes seconds with cdk-nag.
 */
export const ROUTE_SAMPLE: readonly RouteRow[] = (() => {
  const seen = new Set<string>();
  return routes.filter((row) => {
    const kinds = Object.entries(row.uses).map(([key, value]) => `${key}:${Array.isArray(value) ? 'list' : value}`);
    const fresh = kinds.some((kind) => !seen.has(kind));
    for (const kind of kinds) seen.add(kind);
    return fresh;
  });
})();

export interface SynthOptions {
  context?: Record<string, unknown>;
  routes?: readonly RouteRow[];
  functionsDir?: string;
  /** Receives the line naming the deploy's `-c` overrides (by default dropped). */
  report?: (line: string) => void;
}

export type Synthesized = ReturnType<typeof build>;

/**
 * The apps already built in this worker, by their options: a synthesis with cdk-nag takes seconds, and the template
 * files ask for the same stages again and again (a run: 43 calls, 21 distinct builds; the three stages' defaults
 * alone were asked for 21 times). The infra project runs its files in one module graph per worker (vitest.config.ts
 * `isolate: false`), so a build is made once per worker whichever files ask for it. A call with `report` builds
 * afresh: the lines go to the caller while CDK builds. What a test gets back is shared: it reads the app, the stack
 * and the templates, and changes none of them.
 */
const built = new Map<string, Synthesized>();

export function synth(options: SynthOptions = {}): Synthesized {
  if (options.report) return build(options);
  const { context = {}, routes = null, functionsDir = null } = options;
  // A context key set to undefined unsets a default (`apiDocs: undefined` generates the docs): kept in the key.
  const key = JSON.stringify({ context: { stage: 'dev', ...context }, routes, functionsDir }, (_, value) =>
    value === undefined ? '<unset>' : value,
  );
  const found = built.get(key) ?? build(options);
  built.set(key, found);
  return found;
}

function build({ context = {}, routes, functionsDir, report = () => {} }: SynthOptions) {
  const { app, stack } = createApp({
    context: { ...FLAGS, stage: 'dev', 'aws:cdk:bundling-stacks': [], apiDocs: FIXTURE_API_DOCS, ...context },
    routes,
    functionsDir,
    report,
  });
  return { app, stack, template: wholeStage(stack), stacks: stacksOf(stack) };
}

/** The stage's templates: the main stack's and each nested stack's (route groups, operations), by construct path. */
export function stacksOf(stack: Stack): Map<string, Template> {
  const nested = stack.node.findAll().filter((node): node is NestedStack => NestedStack.isNestedStack(node));
  return new Map([
    [stack.node.path, Template.fromStack(stack)],
    ...nested.map((child) => [child.node.path, Template.fromStack(child)] as const),
  ]);
}

/**
 * The stage as one template, so a test reads a route function, its role, its route and its
 * alarms wherever a nested stack put them: the main stack's resources plus every nested
 * stack's, with what crosses a stack boundary put back as if in one stack: a nested
 * parameter (`{Ref: referenceto…}`) becomes what the parent passes it (`{Ref: TableId}`), and
 * a nested stack's output read by a sibling (`{Fn::GetAtt: [Nested, Outputs.X]}`) becomes
 * that output's value (`{Ref: FunctionId}`).
 */
export function wholeStage(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON();
  const resources: Record<string, unknown> = { ...parent.Resources };
  const outputs = new Map<string, unknown>();
  const replace = (value: unknown, swap: (node: Record<string, unknown>) => unknown): unknown => {
    if (Array.isArray(value)) return value.map((inner) => replace(inner, swap));
    if (!value || typeof value !== 'object') return value;
    const swapped = swap(value as Record<string, unknown>);
    if (swapped !== undefined) return swapped;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replace(inner, swap)]));
  };
  for (const child of stack.node.findAll().filter((node): node is NestedStack => NestedStack.isNestedStack(node))) {
    const resourceId = stack.getLogicalId(child.nestedStackResource as CfnElement);
    const passed = (parent.Resources[resourceId]?.Properties?.Parameters ?? {}) as Record<string, unknown>;
    const json = Template.fromStack(child).toJSON();
    const fromParent = (node: Record<string, unknown>) =>
      typeof node.Ref === 'string' && node.Ref in passed ? passed[node.Ref] : undefined;
    Object.assign(resources, replace(json.Resources, fromParent));
    for (const [name, output] of Object.entries((json.Outputs ?? {}) as Record<string, { Value: unknown }>))
      outputs.set(`${resourceId}/${name}`, replace(output.Value, fromParent));
  }
  const fromSibling = (node: Record<string, unknown>) => {
    const [id, attribute] = (node['Fn::GetAtt'] ?? []) as [string?, string?];
    return attribute?.startsWith('Outputs.') ? outputs.get(`${id}/${attribute.slice('Outputs.'.length)}`) : undefined;
  };
  // Twice: a sibling's output can carry a parameter the parent fed it from another sibling.
  const merged = replace(replace(resources, fromSibling), fromSibling) as Record<string, unknown>;
  return Template.fromJSON({ ...parent, Resources: merged });
}

export type Resource = {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
};
type Statement = { Effect?: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

/** A template's resources of one type, by logical id. */
export const resourcesOf = (template: Template, type: string) =>
  template.findResources(type) as Record<string, Resource>;

/** Route functions by handler, found by the tag RouteFunction sets (CDK helper functions lack it). */
export function routeFunctions(template: Template): Map<string, { id: string; fn: Resource }> {
  const found = new Map<string, { id: string; fn: Resource }>();
  for (const [id, fn] of Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))) {
    const tag = (fn.Properties.Tags ?? []).find((t: { Key: string }) => t.Key === ROUTE_TAG);
    if (tag) found.set(tag.Value, { id, fn });
  }
  return found;
}

/** Every IAM statement that reaches a function's role, inline or attached. */
export function statementsOf(template: Template, fn: Resource): Statement[] {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  const role = resourcesOf(template, 'AWS::IAM::Role')[roleId]!;
  if (role.Properties.ManagedPolicyArns?.length) throw new Error(`${roleId} has managed policies`);
  const inline = (role.Properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement);
  const attached = Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  return [...inline, ...attached];
}

export const actionsOf = (statements: Statement[]): string[] => statements.flatMap((s) => [s.Action].flat());

/** Actions of the statements whose resources mention the given logical id. */
export function actionsOn(statements: Statement[], logicalId: string): string[] {
  return actionsOf(statements.filter((s) => JSON.stringify(s.Resource).includes(`"${logicalId}"`)));
}

export function onlyId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  if (ids.length !== 1) throw new Error(`expected one ${type}, found ${ids.length}`);
  return ids[0]!;
}

/** The one resource of a type in a template (throws unless there is exactly one). */
export const onlyResource = (template: Template, type: string): Resource =>
  resourcesOf(template, type)[onlyId(template, type)]!;

/** The logical id of the key sealing the webhooks' signing secrets (infra/webhook-secrets-key.ts). */
export const sealingKeyId = (template: Template): string =>
  Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret')).find(([, s]) =>
    s.Properties.Description.includes("sealing each webhook subscription's secrets"),
  )![0];
