import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  batchGet,
  db,
  labelled,
  queryPages,
  tableName,
  type TransactItem,
  TransactionCancelled,
  transactWrite,
} from '../../data/client.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import * as z from '../../schema.ts';
import { DOCUMENT_KINDS, type DocumentLine, type InvoiceDocument } from '../domain/invoice.ts';

/**
 * Invoices and credit notes (shared/README.md "Invoices"): each document an item in its order's partition, frozen
 * when numbered, and each seller's numbers of a year in a series one counter item (`last`). Numbers are given in one transaction
 * with the documents they number: the counter moves from the value read to the last number given (conditional, so two
 * numbering at once cannot give one number twice: the loser reads again) and each document is put only where none is
 * (an order invoiced once however often it is handed over). No number is taken without its document, so none is lost.
 */

/** The invoice's item's name in its order's partition; a credit note's is `CREDIT#<its cancel>`. */
export const INVOICE = keys.documentNames.invoice;
/** More documents than an order has: its invoice and a credit note per part (an order has at most 50 tickets). */
const MAX_DOCUMENTS = 60;

const LineItem = storedSchema<DocumentLine>()(
  z.lazy(() =>
    z.object({
      key: z.string(),
      text: z.string(),
      quantity: z.number(),
      gross: z.number(),
      tax: z.number(),
      taxName: z.optional(z.string()),
      rate: z.optional(z.number()),
    }),
  ),
);
const DocumentItem = storedSchema<InvoiceDocument>()(
  z.lazy(() =>
    z.object({
      number: z.string(),
      kind: z.enum(DOCUMENT_KINDS),
      orderId: z.number(),
      issuedAt: z.string(),
      currency: z.string(),
      seller: z.object({ name: z.string(), address: z.string(), taxId: z.string() }),
      buyer: z.object({
        name: z.string(),
        email: z.string(),
        company: z.optional(z.string()),
        taxId: z.optional(z.string()),
        address: z.optional(z.string()),
      }),
      lines: z.array(LineItem),
      corrects: z.optional(z.string()),
    }),
  ),
);
const documentOf = (item: Record<string, unknown>): InvoiceDocument => parseItem(DocumentItem, item, 'invoice');

/** A document to number: its order, its name there (INVOICE or `CREDIT#…`) and the document as numbered. */
export interface NumberedDocument {
  name: string;
  document: InvoiceDocument;
}

/** A seller's numbers of a year in one series: each series' counter is its own item, gapless on its own. */
export interface NumberSeries {
  seller: string;
  year: number;
  series: number;
}

/** The last number a seller gave in a year's series (0: none yet), read strongly consistent. */
export async function readLastNumber({ seller, year, series }: NumberSeries): Promise<number> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.invoiceNumbers(seller, year, series), ConsistentRead: true }),
  );
  return Item ? z.number().parse(Item.last) : 0;
}

/** Which of these documents are stored already (strongly consistent: a batch's numbering decides on it). */
export async function storedDocuments(wanted: readonly { orderId: number; name: string }[]): Promise<boolean[]> {
  const items = await batchGet(
    wanted.map(({ orderId, name }) => keys.orderDocument(orderId, name)),
    { consistent: true, projection: '#number', names: { '#number': 'number' } },
  );
  return items.map((item) => item !== undefined);
}

/**
 * The invoice numbers of these orders (none where an order has no invoice): one BatchGetItem a hundred orders, each
 * item's number alone, for a list of orders that shows them (an export) without a Query per order.
 */
export async function invoiceNumbersOf(orderIds: readonly number[]): Promise<Map<number, string>> {
  const items = await batchGet(
    orderIds.map((orderId) => keys.orderDocument(orderId, INVOICE)),
    { projection: '#number', names: { '#number': 'number' } },
  );
  return new Map(items.flatMap((item, at) => (item ? [[orderIds[at]!, z.string().parse(item.number)] as const] : [])));
}

const COUNTER = 'invoice numbers';
const DOCUMENT = 'invoice document';

/**
 * The documents put with the seller's series' counter moved from `last` (as read) to their last number, in one transaction
 * (at most 99 documents: DynamoDB's 100 actions). False when it lost: the counter moved since the read, or one of the
 * documents was put meanwhile (another consumer's batch): nothing was written, the caller reads again.
 */
export async function commitNumbered(
  { seller, year, series }: NumberSeries,
  last: number,
  numbered: readonly NumberedDocument[],
): Promise<boolean> {
  const counter: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: keys.invoiceNumbers(seller, year, series),
      UpdateExpression: 'SET #last = :next, entity = :entity',
      ConditionExpression: last === 0 ? 'attribute_not_exists(PK)' : '#last = :last',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: {
        ':next': last + numbered.length,
        ':entity': 'InvoiceNumbers',
        ...(last ? { ':last': last } : {}),
      },
    },
  };
  const puts = numbered.map(
    ({ name, document }): TransactItem =>
      labelled(DOCUMENT, {
        Put: {
          TableName: tableName(),
          Item: { ...keys.orderDocument(document.orderId, name), entity: 'InvoiceDocument', ...document },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
  );
  try {
    await transactWrite([labelled(COUNTER, counter), ...puts]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.anyConditionFailed) return false;
    throw error;
  }
}

/** An order's documents, oldest first (one Query of its partition's `DOCUMENT#` items, bounded). */
export async function readOrderDocuments(orderId: number): Promise<InvoiceDocument[]> {
  const items = await queryPages(
    {
      TableName: tableName(),
      ...keyCondition(keys.orderDocuments(orderId), { beginsWith: keys.orderDocumentsPrefix }),
      ConsistentRead: true,
    },
    MAX_DOCUMENTS,
  );
  return items.map(documentOf).sort((a, b) => a.number.localeCompare(b.number));
}
