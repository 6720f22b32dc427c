import { send } from './onsale-http.ts';
import type { OnSaleTarget, PreparedOnSale } from './onsale-setup.ts';

/** The on-sale checks' reads of the API's lists (onsale-verify.ts), page by page as a client reads them. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every page of a list, and the `totalCount` its first page answered. */
export async function walk<T>(
  target: OnSaleTarget,
  token: string,
  path: string,
): Promise<{ items: T[]; totalCount: unknown }> {
  const out: T[] = [];
  let totalCount: unknown;
  let cursor: string | undefined;
  for (let offset = 0; ; ) {
    const page = await send({
      method: 'GET',
      url: `${target.apiUrl}${path}&_limit=100${cursor ? `&_cursor=${encodeURIComponent(cursor)}` : `&_offset=${offset}`}`,
      headers: { authorization: `Bearer ${token}` },
    });
    if (page.status !== 200) throw new Error(`GET ${path}: ${page.status} ${JSON.stringify(page.body)}`);
    const items = page.body?.data as T[];
    totalCount ??= page.body?.totalCount;
    out.push(...items);
    const next = page.body?.next;
    if (typeof next === 'string') cursor = next;
    else if (items.length === 100 && !cursor) offset += 100;
    else return { items: out, totalCount };
  }
}

/** How long the event's list may take to hold every ticket its exact total counts: the issue's 2 s and ample room. */
const LIST_CONVERGED_MS = 15_000;

/**
 * The event's tickets once its list holds as many as its `totalCount` (exact at once; the entries are the table
 * stream's consumer's, shared/lists/README.md "How long the lists lag"), walked again until then; a list still short
 * after LIST_CONVERGED_MS is a failure, and its tickets are what the other checks read.
 */
export async function listedTickets<T>(
  target: OnSaleTarget,
  prepared: PreparedOnSale,
  failures: string[],
): Promise<T[]> {
  const path = `/tickets?event=${prepared.eventId}`;
  const until = performance.now() + LIST_CONVERGED_MS;
  for (;;) {
    const { items, totalCount } = await walk<T>(target, prepared.adminToken, path);
    if (items.length === totalCount) return items;
    if (performance.now() > until) {
      failures.push(`the event's list holds ${items.length} tickets of its totalCount ${totalCount}`);
      return items;
    }
    await sleep(500);
  }
}
