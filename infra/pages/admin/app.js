// The admin page: sign in (password or identity provider), the session's calls, sign out.
// Same-origin fetches to /api/v2 with the session cookie; unsafe ones carry
// X-Requested-With, the API's CSRF defence for cookie-authenticated requests.
const API = '/api/v2';
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (method !== 'GET') headers['x-requested-with'] = 'fetch';
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
  show(`${method} ${API}${path}`, response.status, json);
  return { status: response.status, body: json };
}

function show(request, status, body) {
  const result = $('result');
  result.dataset.status = String(status);
  result.textContent = `${request} → ${status}\n${JSON.stringify(body, null, 2)}`;
}

function signedIn(profile) {
  const status = $('status');
  status.dataset.state = profile ? 'signed-in' : 'signed-out';
  status.textContent = profile ? `Signed in as ${profile.email ?? profile.login}` : 'Signed out';
  $('signed-in').hidden = !profile;
  $('signed-out').hidden = Boolean(profile);
}

async function whoAmI() {
  const { status, body } = await api('GET', '/auth/me');
  signedIn(status === 200 ? body.data : undefined);
}

$('legacy-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const { status } = await api('POST', '/auth/legacy/login', { login: $('login').value, password: $('password').value });
  if (status === 200) await whoAmI();
});

$('idp-login').addEventListener('click', async () => {
  // The provider brings the browser back here, through this origin's /api/v2/auth/callback.
  const { status, body } = await api('POST', '/auth/login', { redirect_uri: `${location.origin}/` });
  if (status === 200) location.assign(body.data.auth_url);
});

$('me').addEventListener('click', whoAmI);
$('refresh').addEventListener('click', () => api('POST', '/auth/refresh'));

$('logout').addEventListener('click', async () => {
  // Identity-provider mode answers the provider's logout URL; password mode refuses that route (403).
  const idp = await api('POST', `/auth/logout?return_to=${encodeURIComponent(`${location.origin}/`)}`);
  if (idp.status === 200) {
    signedIn(undefined);
    location.assign(idp.body.data.logout_url);
    return;
  }
  const legacy = await api('POST', '/auth/legacy/logout');
  if (legacy.status === 200 || legacy.status === 401) signedIn(undefined);
});

// A reset link carries its one-time token in the fragment (never sent to a server, so no
// access log keeps it): read it, drop it from the address bar, keep it for this tab only.
const RESET = 'ticketing-reset-token';
if (location.pathname === '/reset-password') {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token) sessionStorage.setItem(RESET, token);
  if (location.hash) history.replaceState(null, '', location.pathname);
  $('reset').hidden = !sessionStorage.getItem(RESET);
}

$('reset-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const { status } = await api('POST', '/auth/legacy/reset-password', { token: sessionStorage.getItem(RESET), newPassword: $('new-password').value });
  if (status === 200) {
    sessionStorage.removeItem(RESET);
    $('reset').hidden = true;
  }
});

const errorCode = new URLSearchParams(location.search).get('error_code');
if (errorCode) {
  $('error').hidden = false;
  $('error').textContent = `Sign-in failed: ${errorCode}`;
}
whoAmI();
