// Buying, step by step: the published events, an event's ticket types (what is available, at what price) and waves,
// a reservation holding the chosen tickets until its expiry (amounts from the server only), the attendees, the
// checkout, then the payment (pay.js) and the order with its tickets (order.js).
import { $, api, element, refused, tell } from './api.js';
import { showOrder, waitForOrder } from './order.js';
import { paymentForm } from './pay.js';

const money = (amount, currency) =>
  currency ? new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount) : amount.toFixed(2);

/** What the buyer has chosen so far: the event, its reservation, the checkout's order and payment. */
const purchase = { event: undefined, reservation: undefined, checkout: undefined, countdown: undefined };

/** The sections each step shows (the reservation stays in view while paying: its countdown and amounts). */
const STEPS = { event: ['event'], reservation: ['reservation'], payment: ['reservation', 'payment'], order: ['order'] };
function show(step) {
  for (const id of ['event', 'reservation', 'payment', 'order']) $(id).hidden = !STEPS[step].includes(id);
}

/** The events to come that are on sale: published (the list also has an unpublished one the customer holds an order for). */
export async function loadEvents() {
  const now = Math.floor(Date.now() / 1000);
  const answer = await api('GET', `/my-account/event?fromEventStart=${now}&_limit=20`, { quiet: true });
  const list = $('events-list');
  list.replaceChildren();
  if (refused(answer)) return;
  const published = answer.body.data.filter((event) => event.published === '1');
  for (const event of published) {
    const choose = element('button', { type: 'button', className: 'choose-event', text: event.title });
    choose.addEventListener('click', () => chooseEvent(event));
    const when = new Date(event.start).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
    const left = event.inventory.total - event.inventory.sold;
    list.append(
      element('li', { 'data-event-id': event.id }, choose, ` ${when}, ${event.venue || 'venue to come'} (${left} left)`),
    );
  }
  if (published.length === 0) list.append(element('li', { text: 'No event is on sale.' }));
}

async function chooseEvent(event) {
  tell();
  const [types, waves] = await Promise.all([
    api('GET', `/my-account/ticket-type/${event.id}?_limit=50`),
    api('GET', `/my-account/wave-time/${event.id}`, { quiet: true }),
  ]);
  if (refused(types) || refused(waves)) return;
  purchase.event = event;
  $('event').dataset.eventId = event.id;
  $('event-title').textContent = event.title;
  $('event-types').replaceChildren(
    ...types.body.data.map((type) =>
      element(
        'tr',
        { 'data-type-id': type.id },
        element('td', { text: type.name }),
        element('td', { text: money(type.price) }),
        element('td', { className: 'available', text: String(type.available) }),
        element(
          'td',
          {},
          element('input', {
            type: 'number',
            className: 'quantity',
            min: 0,
            max: Math.min(type.available, 100),
            value: 0,
            disabled: type.available === 0,
            ariaLabel: `How many ${type.name}`,
          }),
        ),
      ),
    ),
  );
  const wave = $('wave');
  wave.replaceChildren(
    ...waves.body.data.map((w) =>
      element('option', { value: w.id, text: `${w.name}, ${new Date(w.startTime).toLocaleTimeString('en')}` }),
    ),
  );
  $('wave-choice').hidden = waves.body.data.length === 0;
  show('event');
}

$('reserve').addEventListener('click', async () => {
  tell();
  const waveTimeId = $('wave-choice').hidden ? undefined : Number($('wave').value);
  const lines = [...$('event-types').querySelectorAll('tr')]
    .map((row) => ({ typeId: Number(row.dataset.typeId), quantity: Number(row.querySelector('.quantity').value) }))
    .filter((line) => line.quantity > 0)
    .map((line) => (waveTimeId === undefined ? line : { ...line, waveTimeId }));
  if (lines.length === 0) return tell('Choose how many tickets you want first.');
  $('reserve').disabled = true;
  const answer = await api('POST', '/my-account/reservations', { body: { eventId: Number(purchase.event.id), lines } });
  $('reserve').disabled = false;
  if (refused(answer)) return;
  showReservation(answer.body.data);
});

function showReservation(reservation) {
  purchase.reservation = reservation;
  purchase.checkout = undefined;
  const { currency } = reservation.amounts;
  $('reservation').dataset.reservationId = reservation.id;
  $('reservation-lines').replaceChildren(
    ...reservation.lines.map((line) =>
      element('li', { text: `${line.quantity} × ${line.name} at ${money(line.unitPrice, currency)}: ${money(line.amount, currency)}` }),
    ),
    element('li', { text: `Shipping: ${money(reservation.amounts.shipping, currency)}` }),
  );
  $('reservation-total').textContent = money(reservation.amounts.total, currency);
  $('reservation-total').dataset.total = String(reservation.amounts.total);
  // One attendee per held ticket, in the reservation's line order (as the checkout takes them).
  const held = reservation.lines.flatMap((line) => Array.from({ length: line.quantity }, () => line.name));
  $('attendees').replaceChildren(...held.map((name, n) => attendeeFields(n, name)));
  clearInterval(purchase.countdown);
  const tick = () => {
    const left = Math.max(0, Math.round((Date.parse(reservation.expiresAt) - Date.now()) / 1000));
    $('reservation-expiry').textContent = left
      ? `Held for you for ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
      : 'The hold has lapsed: these tickets are on sale again.';
    if (!left) clearInterval(purchase.countdown);
  };
  tick();
  purchase.countdown = setInterval(tick, 1000);
  $('checkout').disabled = false;
  show('reservation');
}

/** One attendee's fields: the spec's names, email, birth date and company (the required ones marked so). */
function attendeeFields(n, typeName) {
  const field = (name, label, type = 'text', required = false) =>
    element(
      'label',
      { text: `${label} ` },
      element('input', { id: `attendee-${n}-${name}`, name, type, required, autocomplete: 'off' }),
    );
  return element(
    'fieldset',
    { 'data-attendee': String(n) },
    element('legend', { text: `Ticket ${n + 1}: ${typeName}` }),
    field('firstName', 'First name', 'text', true),
    field('lastName', 'Last name', 'text', true),
    field('email', 'Email', 'email', true),
    field('birthDate', 'Birth date', 'date'),
    field('company', 'Company'),
  );
}

function attendees() {
  return [...$('attendees').querySelectorAll('fieldset')].map((fieldset) => {
    const attendee = {};
    for (const input of fieldset.querySelectorAll('input')) if (input.value) attendee[input.name] = input.value.trim();
    return attendee;
  });
}

/** The key of one checkout body: a retry of the same body (a lost answer, a second click) answers the same order. */
const checkoutKeys = new Map();
const keyFor = (body) => {
  const text = JSON.stringify(body);
  if (!checkoutKeys.has(text)) checkoutKeys.set(text, crypto.randomUUID());
  return checkoutKeys.get(text);
};

$('attendees-form').addEventListener('submit', async (submitted) => {
  submitted.preventDefault();
  tell();
  const body = { attendees: attendees() };
  $('checkout').disabled = true;
  const answer = await api('POST', `/my-account/reservations/${purchase.reservation.id}/checkout`, {
    body,
    headers: { 'idempotency-key': keyFor([purchase.reservation.id, body]) },
  });
  $('checkout').disabled = false;
  if (refused(answer)) return;
  purchase.checkout = answer.body.data;
  const { order, payment } = purchase.checkout;
  $('order').dataset.orderId = order.id;
  if (!payment) return finish();
  $('payment-amount').textContent = money(order.grandTotal, order.currency);
  const processor = await api('GET', '/my-account/payment-processor', { quiet: true });
  if (refused(processor)) return;
  if (processor.body.data.processor !== 'stripe') return tell('This page takes payments through Stripe only.');
  purchase.form = await paymentForm({ ...payment, publishableKey: processor.body.data.publishableKey }, $('card'));
  show('payment');
});

$('pay').addEventListener('click', async () => {
  tell();
  $('pay').disabled = true;
  const outcome = await purchase.form.confirm().catch((error) => ({ succeeded: false, message: error.message }));
  $('pay').disabled = false;
  if (!outcome.succeeded) return tell(`The payment did not go through: ${outcome.message}`, 'payment_failed');
  await finish();
});

/** Paid (or free): the order, once its tickets are issued. */
async function finish() {
  clearInterval(purchase.countdown);
  show('order');
  const { order } = purchase.checkout;
  showOrder({ ...order, tickets: [] }, 'Payment received: issuing your tickets…');
  const issued = await waitForOrder(order.id, purchase.reservation.eventId);
  if (issued) showOrder(issued);
  else tell('Your tickets are taking longer than usual: they will be in your orders and your mail.');
}

$('release').addEventListener('click', async () => {
  const answer = await api('DELETE', `/my-account/reservations/${purchase.reservation.id}`);
  if (refused(answer)) return;
  clearInterval(purchase.countdown);
  tell('Released: the tickets are on sale again.');
  show('event');
  await chooseEvent(purchase.event);
});
