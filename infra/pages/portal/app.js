// The portal page: a customer signs in (PUT /my-account answers a bearer token, kept for this tab only), reads
// their account, accepts a ticket sent to them and buys tickets (buy.js). Same-origin fetches to /api/v2 (api.js).
import { $, api, TOKEN, tell } from './api.js';
import { loadEvents } from './buy.js';

// Mailed links carry their one-time token in the fragment (`/claim#token=…`,
// `/verify-email#token=…`), which browsers never send: no server or CDN log keeps it. The
// page takes it out of the address bar at once and holds it for this tab only, so it
// survives signing in without ever being put in a URL.
const CLAIM = 'ticketing-claim-token';
const VERIFY = 'ticketing-verification-token';
const held = { '/claim': CLAIM, '/verify-email': VERIFY }[location.pathname];
if (held) {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token) sessionStorage.setItem(held, token);
}
if (location.hash) history.replaceState(null, '', location.pathname);

let current;
function signedIn(email) {
  const changed = email !== current;
  current = email;
  const status = $('status');
  status.dataset.state = email ? 'signed-in' : 'signed-out';
  status.textContent = email ? `Signed in as ${email}` : 'Signed out';
  $('account').hidden = !email;
  $('events').hidden = !email;
  if (changed) {
    // Another customer (or none): nothing of the last one's purchase stays on the page.
    for (const id of ['event', 'reservation', 'payment', 'order']) $(id).hidden = true;
    tell();
    if (email) loadEvents();
  }
  $('customer-form').hidden = Boolean(email);
  const claim = sessionStorage.getItem(CLAIM);
  $('claim').hidden = !claim;
  $('claim-accept').hidden = !email;
  $('claim-note').textContent = email ? 'Accept it into your account.' : 'Sign in above to accept it into your account.';
}

$('claim-accept').addEventListener('click', async () => {
  const { status, body } = await api('POST', '/my-account/claim', { body: { token: sessionStorage.getItem(CLAIM) } });
  // Spent or refused, the link is done with either way; the answer above says why.
  if (status !== 401) sessionStorage.removeItem(CLAIM);
  $('claim').hidden = true;
  if (status !== 200) return;
  const ticket = body.data;
  $('claimed').hidden = false;
  $('claimed-ticket').dataset.ticketId = String(ticket.id);
  $('claimed-ticket').textContent = `Ticket ${ticket.id} (barcode ${ticket.barcode}) is now in your account.`;
});

$('customer-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  sessionStorage.removeItem(TOKEN);
  const verification = sessionStorage.getItem(VERIFY);
  const { status, body } = await api('PUT', '/my-account', {
    body: {
      login: $('customer-login').value,
      password: $('customer-password').value,
      ...(verification ? { emailVerificationToken: verification } : {}),
    },
  });
  if (status !== 200) return;
  sessionStorage.removeItem(VERIFY);
  sessionStorage.setItem(TOKEN, body.data.token);
  signedIn($('customer-login').value);
});

async function myAccount() {
  const { status, body } = await api('GET', '/my-account');
  if (status === 200) signedIn(body.data.emailAddress);
  if (status === 401) {
    sessionStorage.removeItem(TOKEN);
    signedIn(undefined);
  }
}

$('my-account').addEventListener('click', myAccount);

$('customer-logout').addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN);
  signedIn(undefined);
});

signedIn(undefined);
if (sessionStorage.getItem(TOKEN)) myAccount();
