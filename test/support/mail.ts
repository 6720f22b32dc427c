import { randomUUID } from 'node:crypto';

/** The mail the SES stand-in (aws-ses-v2-local) received, read back by the tests, and the links in it. */
export interface StoredEmail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  /** Inline images and attachments, their content base64. */
  attachments?: {
    filename: string;
    contentId?: string;
    contentType: string;
    contentDisposition?: string;
    content: string;
  }[];
  at: number;
}

/** A fresh address nobody else in the run uses: `<label>-<uuid>@test.local`. */
export const newAddress = (label = 'customer') => `${label}-${randomUUID()}@test.local`;

/** The mail received for an address, oldest first; from this run's stand-in unless `store` names another's. */
export async function mailTo(address: string, store = process.env.SES_STORE_URL): Promise<StoredEmail[]> {
  const { emails } = (await (await fetch(`${store}/store`)).json()) as { emails: StoredEmail[] };
  return emails.filter((email) => email.destination.to.includes(address));
}

/** The token of the `<front end>/<page>#token=…` link in a mail: `page` is verify-email, claim or reset-password. */
export function linkTokenIn(mail: StoredEmail, page: string): string {
  const match = new RegExp(`/${page}#token=([A-Za-z0-9_-]+)`).exec(mail.body.text ?? '');
  if (!match) throw new Error(`no /${page} link in the mail to ${mail.destination.to.join(', ')}`);
  return match[1]!;
}

/** The token of the `page` link in the newest mail to an address. */
export async function newestLinkToken(address: string, page: string): Promise<string> {
  const mail = (await mailTo(address)).at(-1);
  if (!mail) throw new Error(`no mail to ${address}`);
  return linkTokenIn(mail, page);
}
