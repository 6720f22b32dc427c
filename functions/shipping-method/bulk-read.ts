import { bulkRead } from '#shared/use-cases/shipping-methods';
import { positiveId } from '#shared/domain/ids';
import { bulkBody } from '#shared/http/bulk';
import { bulk } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('POST /shipping-method/bulk-read', { body: bulkBody(positiveId) }, async ({ body }) =>
  bulk('object', await bulkRead(body.data)),
);
