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

function signedIn(email) {
  const status = $('status');
  status.dataset.state = email ? 'signed-in' : 'signed-out';
  status.textContent = email ? `Signed in as ${email}` : 'Signed out';
  $('account').hidden = !email;
  $('customer-form').hidden = Boolean(email);
}

$('customer-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  sessionStorage.removeItem(TOKEN);
  const { status, body } = await api('PUT', '/my-account', { login: $('customer-login').value, password: $('customer-password').value });
  if (status !== 200) return;
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

if (sessionStorage.getItem(TOKEN)) myAccount();
