/**
 * A new stage has no staff: this creates an administrator record (README "Deploying").
 *
 *   TABLE_NAME=<table> AWS_REGION=<region> npx tsx bin/maintenance/create-administrator.ts \
 *     --email ops@example.org --name "Olive Ops" [--permissions all|tickets:read,checkin:scan] [--vendor] [--events 12,15]
 *
 * Without TABLE_NAME (and AWS_ENDPOINT_URL_DYNAMODB), the table of the stack `npm start` runs (.local/stack.json).
 *
 * `--events` limits the administrator to those events (README "Event-scoped staff"); without it, every event. A
 * limited administrator is refused the stage-wide permissions (`STAGE_WIDE_PERMISSIONS`: `shipping:write`) even if named.
 *
 * In legacy mode the record needs a password: pipe it on stdin with `--password-stdin`
 * (never on the command line, where `ps` and shell history would keep it). In
 * identity-provider mode the record has none: create the Cognito user with the same email
 * (verified) and its first sign-in links the two (shared/identity/data/administrators.ts).
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hashPassword } from '#shared/auth/passwords';
import type { Administrator } from '#shared/identity/domain/administrator';
import { PERMISSIONS, type Permission } from '#shared/auth/permissions';
import { useRunningStack } from '../local/running-stack.ts';

export interface AdministratorOptions {
  email: string;
  name: string;
  /** `all`, or a comma list of PERMISSIONS. */
  permissions: string;
  vendor: boolean;
  /** A comma list of event ids the administrator is limited to; absent = every event. */
  events?: string;
  /** Only for legacy mode; at least 12 characters, like every password the API sets. */
  password?: string;
}

const MIN_PASSWORD_LENGTH = 12;

export class UsageError extends Error {}

export function parsePermissions(text: string): Permission[] {
  if (text.trim() === 'all') return [...PERMISSIONS];
  const given = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = given.filter((item) => !(PERMISSIONS as readonly string[]).includes(item));
  if (given.length === 0 || unknown.length) {
    throw new UsageError(
      `--permissions: expected "all" or a comma list of ${PERMISSIONS.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
    );
  }
  return [...new Set(given)] as Permission[];
}

export function parseEvents(text: string): number[] {
  const given = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (
    given.length === 0 ||
    given.some((item) => !/^[1-9]\d{0,15}$/.test(item) || !Number.isSafeInteger(Number(item)))
  ) {
    throw new UsageError(`--events: expected a comma list of event ids, got "${text}"`);
  }
  return [...new Set(given.map(Number))];
}

/** Creates the record (login = email); refuses a taken login or email (the table's unique items). */
export async function createStaffMember(options: AdministratorOptions): Promise<Administrator> {
  const email = options.email.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    throw new UsageError(`--email: "${options.email}" is not an email address`);
  if (!options.name.trim()) throw new UsageError('--name is required');
  if (options.password !== undefined && options.password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  // Loaded here, not at the top: the command points itself at its table first (main), and shared/data reads the
  // environment when it loads.
  const { createAdministrator } = await import('#shared/identity/data/administrators');
  return createAdministrator({
    login: email,
    email,
    name: options.name.trim(),
    permissions: parsePermissions(options.permissions),
    vendorUser: options.vendor ? 1 : 0,
    ...(options.events !== undefined ? { eventScope: parseEvents(options.events) } : {}),
    ...(options.password !== undefined ? { passwordHash: await hashPassword(options.password) } : {}),
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      permissions: { type: 'string', default: 'all' },
      vendor: { type: 'boolean', default: false },
      events: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
    },
  });
  if (!values.email || !values.name)
    throw new UsageError(
      'usage: --email <address> --name <name> [--permissions all|p1,p2] [--vendor] [--events 12,15] [--password-stdin]',
    );
  const password = values['password-stdin'] ? await readStdin() : undefined;
  console.error(`Table: ${useRunningStack()}`);
  const admin = await createStaffMember({
    email: values.email,
    name: values.name,
    permissions: values.permissions,
    vendor: values.vendor,
    events: values.events,
    password,
  });
  console.log(
    `Administrator ${admin.id} created: ${admin.login} (${admin.permissions.join(', ')})${admin.eventScope ? `, events ${admin.eventScope.join(', ')}` : ''}${password === undefined ? '; no password: sign in through the identity provider' : ''}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
