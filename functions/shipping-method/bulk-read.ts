import { bulkRead } from '#shared/domain/shipping-method-bulk';
import { bulkBody, positiveId } from '#shared/http/bulk';
import { bulk } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('POST /shipping-method/bulk-read', { body: bulkBody(positiveId) }, async ({ body }) =>
  bulk('object', await bulkRead(body.data)),
);
