import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { readTypesAndWaves } from '../../tickets/data/ticket-setting.ts';
import type { Event } from '../../events/domain/event.ts';
import type { Order } from '../domain/order.ts';
import { paidOrderMail } from '../domain/order-mail.ts';
import { printedTicket } from '../../tickets/domain/printed-ticket.ts';
import type { ShippingMethod } from '../domain/shipping-method.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';

const { PORTAL_URL } = requireSection('order mails', z.object({ PORTAL_URL: z.url() }));

/**
 * Mails the buyer (`order.emailAddress`) the confirmation of a paid order (shared/selling/domain/order-mail.ts): its
 * lines priced as the tickets were sold (their `price`, the order's `grandTotal`: never the types' prices today),
 * total, tickets with their QR codes (or that they will be posted), and the portal's link. Reads the
 * tickets' types and waves in one BatchGetItem; `tickets` may come in any order (they are mailed in the order's).
 * Called after the payment is committed, so a mail that cannot go is logged and answered `failed`, never thrown:
 * the buyer's tickets are in the portal either way, and `PUT /my-account/email` sends the newest order again.
 */
export async function sendOrderConfirmation(
  order: Order,
  tickets: readonly TicketRecord[],
  event: Event,
  shippingMethod: ShippingMethod | null,
): Promise<'sent' | 'failed'> {
  const position = new Map(order.ticketIds.map((id, index) => [id, index]));
  const ordered = [...tickets].sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  const { types, waves } = await readTypesAndWaves(
    event.id,
    ordered.map((ticket) => ticket.typeId),
    ordered.flatMap((ticket) => (ticket.waveTimeId === null ? [] : [ticket.waveTimeId])),
  );
  const mail = await paidOrderMail({
    order,
    event,
    shippingMethod,
    portalUrl: PORTAL_URL,
    types,
    soldAs: new Map(
      ordered.map(({ id, typeId, price, taxAmount, bookingFee }) => [id, { typeId, price, taxAmount, bookingFee }]),
    ),
    tickets: ordered.map((ticket) =>
      printedTicket(ticket, {
        event,
        type: types.get(ticket.typeId),
        wave: ticket.waveTimeId === null ? undefined : waves.get(ticket.waveTimeId),
      }),
    ),
  });
  try {
    await sendEmail({ to: order.emailAddress, ...mail });
    return 'sent';
  } catch (error) {
    logger.error('Order confirmation mail failed', { orderId: order.id, error: error as Error });
    return 'failed';
  }
}
