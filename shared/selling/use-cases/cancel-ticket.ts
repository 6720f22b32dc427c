import type { Actor } from '../../tickets/domain/ticket-history.ts';
import { withStates, statesOf } from '../../tickets/domain/ticket-states.ts';
import type { Via } from '../../tickets/domain/ticket-transitions.ts';
import { PROCESS_STATE, type TicketRecord } from '../../tickets/domain/ticket.ts';
import { changeTicket } from '../../tickets/use-cases/change-ticket.ts';
import { ticketsToCancel } from '../domain/order-cancel.ts';

/**
 * One ticket's cancel, apart from the cancel's other steps (cancel-steps.ts) because a failed box-office sale's undo
 * (undo-sale.ts) cancels its tickets the same way but refunds nothing through Stripe: the box office's bundle keeps
 * no Stripe SDK.
 */

/** A ticket of the order to the spec's cancelled state (skipped when it no longer holds a place). */
export async function cancelTicket(ticket: TicketRecord, actor: Actor, force: boolean): Promise<TicketRecord> {
  const via: Via[] = force ? ['cancel_order', 'force_cancel'] : ['cancel_order'];
  return changeTicket(ticket.id, { actor, action: 'cancel_order', via }, (record, at) => {
    // Changed since it was read (cancelled by an earlier attempt, deleted, transferred): nothing to do.
    if (!ticketsToCancel([record]).length) return { changes: [], result: record };
    const after = {
      ...withStates(record, { ...statesOf(record), processState: PROCESS_STATE.cancelled }),
      updated: at,
    };
    const forced = record.processState === PROCESS_STATE.checkedIn;
    return {
      changes: [{ before: record, after }],
      action: forced ? 'force_cancel_order' : 'cancel_order',
      result: after,
    };
  });
}
