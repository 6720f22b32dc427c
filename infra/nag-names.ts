import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * How cdk-nag spells a value in a finding id: literals as they are, `{Ref: X}` as `<X>`,
 * `{Fn::GetAtt: [X, Y]}` as `<X.Y>`, joins concatenated. A stage pinned to its account and
 * region (staging, prod) has literal ARNs where dev has `<AWS::Region>`, so an acknowledgement
 * is written from the value itself rather than by hand.
 */
export function nagName(scope: Construct, value: string): string {
  const render = (node: unknown): string => {
    if (typeof node === 'string') return node;
    const object = (node ?? {}) as Record<string, unknown>;
    if ('Ref' in object) return `<${String(object.Ref)}>`;
    if ('Fn::GetAtt' in object) return `<${(object['Fn::GetAtt'] as string[]).join('.')}>`;
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map(render).join(separator);
    }
    return JSON.stringify(node);
  };
  return render(Stack.of(scope).resolve(value));
}
