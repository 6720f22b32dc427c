// The portal's one door to the API: same-origin fetches to /api/v2 with the customer's bearer token (kept for this
// tab only), each answer shown under "Last answer" (`quiet`: not shown, for polls and background loads).
export const API = '/api/v2';
export const TOKEN = 'ticketing-customer-token';
export const $ = (id) => document.getElementById(id);

export async function api(method, path, { body, headers = {}, quiet = false } = {}) {
  const sent = { accept: 'application/json', ...headers };
  const token = sessionStorage.getItem(TOKEN);
  if (token) sent.authorization = `Bearer ${token}`;
  if (body !== undefined) sent['content-type'] = 'application/json';
  const response = await fetch(API + path, {
    method,
    headers: sent,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  if (!quiet) {
    const result = $('result');
    result.dataset.status = String(response.status);
    result.textContent = `${method} ${API}${path} → ${response.status}\n${JSON.stringify(json, null, 2)}`;
  }
  return { status: response.status, body: json, retryAfter: response.headers.get('retry-after') };
}

/** A refusal as a buyer reads it: the 409 reasons the buying routes answer, 429's wait, a 400's fields. */
export function refusal({ status, body, retryAfter }) {
  const problem = typeof body === 'object' && body ? body : {};
  if (status === 429) return `Too many attempts: try again in ${retryAfter ?? 'a few'} seconds.`;
  if (status === 409) {
    const because = {
      sold_out: `Sold out: ${problem.left ?? 'no'} tickets of that type are left. Choose fewer or another type.`,
      not_on_sale: 'These tickets are not on sale now.',
      max_per_order: 'That is more tickets than one order may hold.',
      reservation_exists: 'You already hold tickets for this event: check them out or release them first.',
    }[problem.reason];
    return because ?? problem.detail ?? `Refused (${problem.reason ?? status}).`;
  }
  if (status === 400 && Array.isArray(problem.errors))
    return `Please check: ${problem.errors.map((error) => `${error.path}: ${error.message}`).join('; ')}`;
  if (status === 401) return 'Your session has ended: sign in again.';
  return problem.detail ?? `Something went wrong (${status}).`;
}

/** Shows a message to the buyer (`reason`: the 409 reason, for the page's tests and styles); none clears it. */
export function tell(message, reason = '') {
  const box = $('message');
  box.textContent = message ?? '';
  box.dataset.reason = reason;
  box.hidden = !message;
}

/** Tells the buyer why an answer is a refusal; true when it is one. */
export function refused(answer) {
  if (answer.status < 400) return false;
  tell(refusal(answer), answer.body?.reason ?? String(answer.status));
  return true;
}

/** An element with its text and attributes, for the lists the page draws. */
export function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') made.textContent = value;
    else if (name.startsWith('data-')) made.dataset[name.slice(5).replace(/-(\w)/g, (_, c) => c.toUpperCase())] = value;
    else made[name] = value;
  }
  made.append(...children);
  return made;
}
