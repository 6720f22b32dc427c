// The order once paid: polled until its tickets are issued (the webhook records the payment, the consumer behind it
// issues them) and it is `active`, then shown with
// where it is posted, each ticket's barcode and answers, and its printable PDF (its QR code;
// GET /my-account/tickets/{id}/pdf with the bearer token, opened as a blob).
import { $, API, TOKEN, api, element, tell } from './api.js';

const POLL_MS = 1000;
const POLLS = 60;
/** Still on its way: checked out and awaiting Stripe's word, or paid with its tickets being issued. */
const UNSETTLED = new Set(['awaiting_payment', 'pending']);

/** The order as the orders list has it, once settled (active, or refunded when its tickets were gone); else undefined. */
export async function waitForOrder(orderId, eventId) {
  for (let poll = 0; poll < POLLS; poll += 1) {
    const answer = await api('GET', `/my-account/orders?includeTickets=true&includeAnswers=true&event=${eventId}&_limit=100`, {
      quiet: true,
    });
    const order = answer.status === 200 ? answer.body.data.find((entry) => entry.id === orderId) : undefined;
    if (order && !UNSETTLED.has(order.status)) return order;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return undefined;
}

const STATUS_TEXT = {
  active: 'Paid: your tickets are below and in your mail.',
  refunded: 'The tickets went to other buyers before your payment arrived: it has been refunded in full.',
  cancelled: 'This order is cancelled.',
};

/** `questions`: the event's (GET /my-account/question/{eventId}), to show each answer with its question's words. */
export function showOrder(order, note = STATUS_TEXT[order.status] ?? order.status, questions = []) {
  const section = $('order');
  section.dataset.orderId = order.id;
  section.dataset.status = order.status;
  $('order-status').textContent = `Order ${order.id}: ${note}`;
  const address = order.shipping?.address;
  $('order-shipping').hidden = !address;
  const country = order.shipping?.country;
  $('order-shipping').textContent = address ? `Posted to: ${address}${country ? ` (${country})` : ''}` : '';
  const byId = new Map(questions.map((question) => [question.id, question]));
  const answered = (answer) => {
    const question = byId.get(answer.questionId);
    const option = question?.options.find((choice) => choice.id === answer.answerId);
    return `${question?.text ?? `Question ${answer.questionId}`}: ${answer.answerText ?? option?.text ?? answer.answerId}`;
  };
  $('order-tickets').replaceChildren(
    ...(order.tickets ?? []).map((ticket) => {
      const pdf = element('button', { type: 'button', className: 'ticket-pdf', text: 'Ticket PDF (QR code)' });
      const answers = ticket.attendeeQuestions ?? [];
      const item = element(
        'li',
        { 'data-ticket-id': ticket.id, 'data-status': ticket.status },
        `${ticket.name} (ticket ${ticket.id}, ${ticket.status}) `,
        element('code', { className: 'ticket-barcode', text: ticket.barcode ?? '' }),
        ' ',
        pdf,
        ...(answers.length
          ? [element('ul', { className: 'ticket-answers' }, ...answers.map((a) => element('li', { text: answered(a) })))]
          : []),
      );
      pdf.addEventListener('click', () => openPdf(ticket.id, pdf));
      return item;
    }),
  );
}

/** Fetched with the token (a link cannot carry it), then offered as a link to its blob: URL, opened in a tab. */
async function openPdf(ticketId, button) {
  const response = await fetch(`${API}/my-account/tickets/${ticketId}/pdf`, {
    headers: { authorization: `Bearer ${sessionStorage.getItem(TOKEN)}`, accept: 'application/pdf' },
  });
  if (!response.ok) return tell(`The ticket's PDF could not be fetched (${response.status}).`);
  const url = URL.createObjectURL(await response.blob());
  const link = element('a', {
    href: url,
    target: '_blank',
    rel: 'noopener',
    className: 'ticket-pdf-link',
    text: 'Open the ticket PDF',
  });
  button.replaceWith(link);
}
