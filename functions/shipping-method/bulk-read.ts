import { bulkRead } from '#shared/selling/use-cases/shipping-methods';
import { positiveId } from '#shared/domain/ids';
import { bulkBody } from '#shared/http/bulk';
import { bulk } from '#shared/http/envelopes';
import { BulkAnswer } from '#shared/http/answers';
import { ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { route } from '#shared/http/route';

// Bulk-read always carries the object of each found method.
export const handler = route('POST /shipping-method/bulk-read', { body: bulkBody(positiveId) }, async ({ body }) =>
  bulk('object', await bulkRead(body.data)),
);

export const answer = () => BulkAnswer(ShippingMethodResource);
