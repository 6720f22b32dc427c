// Buying, step by step: the published events, an event's ticket types (what is available, at what price), waves
// and the shipping methods to choose from, a reservation holding the chosen tickets until its expiry (amounts from
// the server only), the attendees with the event's questions and the address where the method posts the tickets
// (checkout-form.js), the checkout, then the payment (pay.js) and the order with its tickets (order.js).
import { $, api, element, refused, tell } from './api.js';
import { attendeeFields, clearProblems, readAttendees, showProblems } from './checkout-form.js';
import { showOrder, waitForOrder } from './order.js';
import { paymentForm } from './pay.js';

const money = (amount, currency) =>
  currency ? new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount) : amount.toFixed(2);

/** What the buyer has chosen so far: the event (its questions), the shipping methods, its reservation, the checkout. */
const purchase = {
  event: undefined,
  questions: [],
  methods: new Map(),
  reservation: undefined,
  checkout: undefined,
  countdown: undefined,
};

/** What a method charges, in words (the reservation's answer says what the order pays). */
const charges = (method) =>
  method.chargeType === 'per_ticket' && method.twoPlusCharge !== method.charge
    ? `${money(method.charge)} for the first ticket, ${money(method.twoPlusCharge)} each further one`
    : `${money(method.charge)} ${method.chargeType === 'per_ticket' ? 'a ticket' : 'an order'}`;

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

/** The booking fee one ticket of a type adds (the server's preview, its tax included), beside its price; none when 0. */
const feeNote = (fee, currency) =>
  fee > 0 ? element('span', { className: 'booking-fee', text: ` + ${money(fee, currency)} booking fee` }) : '';

async function chooseEvent(event) {
  tell();
  const [types, waves, questions, methods, processor] = await Promise.all([
    api('GET', `/my-account/ticket-type/${event.id}?_limit=50`),
    api('GET', `/my-account/wave-time/${event.id}`, { quiet: true }),
    api('GET', `/my-account/question/${event.id}?_limit=50`, { quiet: true }),
    api('GET', '/my-account/shipping-method?_limit=100', { quiet: true }),
    // The event's currency (the types answer amounts only): what its checkout charges in.
    api('GET', `/my-account/payment-processor?eventId=${event.id}`, { quiet: true }),
  ]);
  if (refused(types) || refused(waves) || refused(questions) || refused(methods)) return;
  // No processor configured yet: the amounts are drawn without a currency, as before.
  const currency = processor.status === 200 ? processor.body.data.currency : undefined;
  purchase.event = event;
  purchase.questions = questions.body.data;
  purchase.methods = new Map(methods.body.data.map((method) => [method.id, method]));
  $('event').dataset.eventId = event.id;
  $('event-title').textContent = event.title;
  $('event-types').replaceChildren(
    ...types.body.data.map((type) =>
      element(
        'tr',
        { 'data-type-id': type.id },
        element('td', { text: type.name }),
        element('td', { className: 'price' }, money(type.price, currency), feeNote(type.bookingFee, currency)),
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
  $('shipping').replaceChildren(
    element('option', { value: '', text: 'None' }),
    ...methods.body.data.map((method) =>
      element('option', { value: String(method.id), text: `${method.name}: ${charges(method)}` }),
    ),
  );
  $('shipping-choice').hidden = methods.body.data.length === 0;
  describeMethod();
  show('event');
}

/** The chosen method's description, and whether it posts the tickets (then the checkout asks for the address). */
function describeMethod() {
  const method = purchase.methods.get(Number($('shipping').value));
  const posted = method?.requiresShippingInfo
    ? ` Posts the tickets: you give the address at checkout${method.allowInternational ? '' : ' (domestic addresses only)'}.`
    : '';
  $('shipping-note').textContent = method ? `${method.description}${posted}`.trim() : '';
}
$('shipping').addEventListener('change', describeMethod);

$('reserve').addEventListener('click', async () => {
  tell();
  const waveTimeId = $('wave-choice').hidden ? undefined : Number($('wave').value);
  const lines = [...$('event-types').querySelectorAll('tr')]
    .map((row) => ({ typeId: Number(row.dataset.typeId), quantity: Number(row.querySelector('.quantity').value) }))
    .filter((line) => line.quantity > 0)
    .map((line) => (waveTimeId === undefined ? line : { ...line, waveTimeId }));
  if (lines.length === 0) return tell('Choose how many tickets you want first.');
  const shippingMethodId = $('shipping').value ? Number($('shipping').value) : undefined;
  $('reserve').disabled = true;
  const answer = await api('POST', '/my-account/reservations', {
    body: { eventId: Number(purchase.event.id), lines, ...(shippingMethodId ? { shippingMethodId } : {}) },
  });
  $('reserve').disabled = false;
  if (refused(answer)) return;
  showReservation(answer.body.data);
});

function showReservation(reservation) {
  purchase.reservation = reservation;
  purchase.checkout = undefined;
  const { currency } = reservation.amounts;
  const method = purchase.methods.get(reservation.shippingMethodId);
  $('reservation').dataset.reservationId = reservation.id;
  $('reservation-lines').replaceChildren(
    ...reservation.lines.map((line) =>
      element('li', { text: `${line.quantity} × ${line.name} at ${money(line.unitPrice, currency)}: ${money(line.amount, currency)}` }),
    ),
    element('li', {
      text: `Shipping${method ? ` (${method.name})` : ''}: ${money(reservation.amounts.shipping, currency)}`,
    }),
  );
  // The address exactly where the method posts the tickets (the checkout refuses it otherwise).
  $('shipping-address-field').hidden = !method?.requiresShippingInfo;
  $('shipping-address').value = '';
  $('shipping-country').value = '';
  $('shipping-address-note').textContent = method?.allowInternational
    ? 'Any country.'
    : 'Domestic addresses only: the method posts within its home country.';
  clearProblems();
  $('reservation-total').textContent = money(reservation.amounts.total, currency);
  $('reservation-total').dataset.total = String(reservation.amounts.total);
  // One attendee per held ticket, in the reservation's line order (as the checkout takes them).
  const held = reservation.lines.flatMap((line) => Array.from({ length: line.quantity }, () => line.name));
  $('attendees').replaceChildren(...held.map((name, n) => attendeeFields(n, name, purchase.questions)));
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
  clearProblems();
  const { attendees, slots } = readAttendees(purchase.questions);
  const posted = !$('shipping-address-field').hidden;
  const address = posted ? $('shipping-address').value.trim() : '';
  // The country as ISO 3166-1 alpha-2 takes it (upper case); the server says which it refuses and why.
  const country = posted ? $('shipping-country').value.trim().toUpperCase() : '';
  const body = {
    attendees,
    ...(address ? { shippingAddress: address } : {}),
    ...(country ? { shippingCountry: country } : {}),
  };
  $('checkout').disabled = true;
  const answer = await api('POST', `/my-account/reservations/${purchase.reservation.id}/checkout`, {
    body,
    headers: { 'idempotency-key': keyFor([purchase.reservation.id, body]) },
  });
  $('checkout').disabled = false;
  if (refused(answer)) {
    // A 400's problems beside their fields; the message keeps listing them unless each found its field.
    const errors = answer.status === 400 ? (answer.body?.errors ?? []) : [];
    if (errors.length && showProblems(errors, slots) === errors.length)
      tell('Please check the fields marked below.', '400');
    return;
  }
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
  if (issued) showOrder(issued, undefined, purchase.questions);
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
