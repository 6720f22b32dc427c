/**
 * The scale bench's figures and their table (scale.ts's ticket rows, scale-portal.ts's
 * portal rows): per row and size, p50/p99, DynamoDB calls, items read, consumed capacity.
 */

/** p50 at the large size over p50 at the small one: the goal. */
export const SCALE_GOAL = 1.2;

export interface ScaleFigures {
  p50: number;
  p99: number;
  calls: number;
  itemsRead: number;
  rcu: number;
  wcu: number;
  names: string;
}
export interface ScaleRow {
  row: string;
  route: string;
  sizes: Record<string, ScaleFigures>;
  ratio: number;
}

/** `Query+BatchGetItem`, with repeats folded. */
export function label(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join('+') || 'none';
}

const fixed = (value: number, digits = 1) => (Number.isInteger(value) ? String(value) : value.toFixed(digits));

export function table(rows: ScaleRow[], sizes: number[]): string {
  const k = (size: number) => (size >= 1000 ? `${size / 1000}k` : String(size));
  const header = [
    'request',
    ...sizes.flatMap((size) => [
      `p50/p99 ms @${k(size)}`,
      `calls @${k(size)}`,
      `items read @${k(size)}`,
      `RCU/WCU @${k(size)}`,
    ]),
    `p50 ×`,
  ];
  const lines = rows.map((row) => [
    row.row,
    ...sizes.flatMap((size) => {
      const f = row.sizes[String(size)]!;
      return [
        `${f.p50.toFixed(2)} / ${f.p99.toFixed(2)}`,
        `${fixed(f.calls)} ${f.names}`,
        fixed(f.itemsRead),
        `${fixed(f.rcu, 2)} / ${fixed(f.wcu, 2)}`,
      ];
    }),
    `${row.ratio.toFixed(2)}${row.ratio > SCALE_GOAL ? ' !' : ''}`,
  ]);
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...lines.map((line) => `| ${line.join(' | ')} |`),
  ].join('\n');
}

/** A request of a row, by its iteration: method, URL under the API prefix, body. */
export type ScaleRequest = (i: number) => [string, string, unknown?];
/** Measures one row at one size (scale-events.ts): its requests, each answer's body handed to `answered`. */
export type RunRow = (
  row: string,
  route: string,
  size: number,
  request: ScaleRequest,
  answered?: (body: unknown) => void,
) => Promise<void>;
