import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { hashPassword } from '#shared/auth/passwords';
import { epochSeconds } from '#shared/clock';
import { createAdministrator } from '#shared/identity/data/administrators';
import type { Administrator } from '#shared/identity/domain/administrator';
import { readSessionVersion } from '#shared/identity/data/session-versions';
import { startAdminSession } from '#shared/identity/use-cases/admin-session';
import type { Permission } from '#shared/auth/permissions';
import { call, type CallResult } from './api.ts';
import { newContainer } from './container.ts';
import { newAddress } from './mail.ts';

/** Staff in the tests: administrator records made for a test, their sign-in, and how the site signs staff in. */

export interface StaffOptions {
  permissions?: Permission[];
  vendorUser?: 0 | 1;
  /** Stored hashed as the service hashes it. Without it or `passwordHash` the record has no password (an identity-provider account). */
  password?: string;
  /** Stored as given: a bcrypt hash from the old system, say. */
  passwordHash?: string;
  /** The events the administrator is limited to (README "Event-scoped staff"); absent = every event. */
  eventScope?: number[];
}

/** An administrator record with a login and email address of its own (`staff-<uuid>@test.local`); no permissions unless given. */
export async function makeAdmin({
  permissions = [],
  vendorUser = 0,
  password,
  passwordHash,
  eventScope,
}: StaffOptions = {}): Promise<Administrator> {
  const login = newAddress('staff');
  const hash = passwordHash ?? (password === undefined ? undefined : await hashPassword(password));
  return createAdministrator({
    login,
    email: login,
    name: 'Test Staff',
    permissions,
    vendorUser,
    ...(hash === undefined ? {} : { passwordHash: hash }),
    ...(eventScope ? { eventScope } : {}),
  });
}

/** POST /auth/legacy/login; from a random client address unless `sourceIp` names one (the login limits count per network). */
export const legacyLogin = (login: string, password: string, sourceIp?: string): Promise<CallResult> =>
  call('POST', '/api/v2/auth/legacy/login', { body: { login, password }, ...(sourceIp ? { sourceIp } : {}) });

/** POST /auth/legacy/forgot-password, from a random client address unless `sourceIp` names one. */
export const forgotPassword = (email: string, sourceIp?: string): Promise<CallResult> =>
  call('POST', '/api/v2/auth/legacy/forgot-password', { body: { email }, ...(sourceIp ? { sourceIp } : {}) });

/** POST /auth/legacy/reset-password with the token of a mailed reset link. */
export const resetPassword = (token: string, newPassword: string): Promise<CallResult> =>
  call('POST', '/api/v2/auth/legacy/reset-password', { body: { token, newPassword } });

/** Signs an administrator in with a password, as the admin front end does: the session token. */
export async function signIn(admin: { login: string }, password: string): Promise<string> {
  const response = await legacyLogin(admin.login, password);
  expect(response.status, response.raw).toBe(200);
  return response.body.data.jwt as string;
}

/** A token for an administrator record as a sign-in at `authTime` issues it, under the record's current session version. */
export async function staffToken(admin: Administrator, authTime = epochSeconds()): Promise<string> {
  // The stored version, not the one on `admin`: the test's copy of the record may predate a sign-out.
  const sessionVersion = await readSessionVersion('admin', admin.id);
  return (await startAdminSession({ ...admin, sessionVersion }, authTime)).jwt;
}

/** How the site signs staff in (SITE_AUTH_METHOD); the test environment's is 'legacy'. */
export function useSiteAuthMethod(method: 'idp' | 'legacy'): void {
  process.env.SITE_AUTH_METHOD = method;
  newContainer();
}

/** Changes an administrator's permissions, or events, on the record, as an identity-provider sign-in or an operator would. */
/**
 * An administrator removed as an operator removes one (the API has no route for it): their record
 * deleted. Their tokens stay signed but name no one; what they created stays, by their id.
 */
export async function removeAdministrator(id: number): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.administrator(id) }));
}

export async function changeAdministrator(
  id: number,
  change: { permissions?: Permission[]; eventScope?: number[] },
): Promise<void> {
  const names = Object.keys(change);
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.administrator(id),
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(change).map((value, i) => [`:v${i}`, value])),
    }),
  );
}
