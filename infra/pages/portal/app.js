// The portal page: a customer signs in (PUT /my-account answers a bearer token, kept for
// this tab only) and reads their account. Same-origin fetches to /api/v2.
const API = '/api/v2';
const $ = (id) => document.getElementById(id);
const TOKEN = 'ticketing-customer-token';

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  const token = sessionStorage.getItem(TOKEN);
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(API + path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = text; }
  const result = $('result');
  result.dataset.status = String(response.status);
  result.textContent = `${method} ${API}${path} → ${response.status}\n${JSON.stringify(json, null, 2)}`;
  return { status: response.status, body: json };
}

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

function signedIn(email) {
  const status = $('status');
  status.dataset.state = email ? 'signed-in' : 'signed-out';
  status.textContent = email ? `Signed in as ${email}` : 'Signed out';
  $('account').hidden = !email;
  $('customer-form').hidden = Boolean(email);
  const claim = sessionStorage.getItem(CLAIM);
  $('claim').hidden = !claim;
  $('claim-accept').hidden = !email;
  $('claim-note').textContent = email ? 'Accept it into your account.' : 'Sign in above to accept it into your account.';
}

$('claim-accept').addEventListener('click', async () => {
  const { status, body } = await api('POST', '/my-account/claim', { token: sessionStorage.getItem(CLAIM) });
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
    login: $('customer-login').value,
    password: $('customer-password').value,
    ...(verification ? { emailVerificationToken: verification } : {}),
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
