import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { now } from '../../clock.ts';
import { AdministratorProfileResource, type Administrator } from '../domain/administrator.ts';
import * as z from '../../schema.ts';
import { Conflict } from '../../errors.ts';
import { db, findOneByIndex, labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { allocateIds } from '../../data/counters.ts';
import { keys } from '../../data/keys.ts';
import type { Partition } from '../../data/key-conditions.ts';
import { END_SESSIONS_CLAUSE, END_SESSIONS_VALUES } from './session-versions.ts';

/**
 * Administrators (the staff who use the admin SPA). One item each; GSI1 finds one by
 * login, GSI2 by email (identity-provider sign-in and forgot-password), and
 * `UNIQUE#ADMIN_LOGIN#<login>` / `UNIQUE#ADMIN_EMAIL#<email>` items, written in the same
 * transaction, keep both unique.
 *
 * Identity-provider link: the first sign-in through Cognito finds the record by the
 * id token's (verified) email and pins the token's `sub` on it (`idpSub`, plus the
 * Cognito user name for API calls). Later sign-ins must carry the same `sub`, so a
 * Cognito user re-created with the same email cannot take over the record.
 */

const normalisedLogin = (login: string) => login.trim().toLowerCase();
export const normalisedEmail = (email: string) => email.trim().toLowerCase();

// The profile (the answer's schema) with its secrets, as stored beside its keys.
const AdministratorItem = storedSchema<Administrator>()(
  z.lazy(() =>
    z.extend(z.object(AdministratorProfileResource.shape), {
      passwordHash: z.optional(z.string()),
      sessionVersion: z.optional(z.number()),
    }),
  ),
);
const fromItem = (item: Record<string, unknown>): Administrator => parseItem(AdministratorItem, item, 'administrator');

/** The one administrator a lookup index points at (logins and emails are unique). */
async function findByIndex(partition: Partition): Promise<Administrator | undefined> {
  const item = await findOneByIndex(partition);
  return item ? fromItem(item) : undefined;
}

export const findAdministratorByEmail = (email: string) => findByIndex(keys.administratorByEmail(email));

export const findAdministratorByLogin = (login: string) => findByIndex(keys.administratorByLogin(login));

export async function getAdministrator(id: number): Promise<Administrator | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.administrator(id) }));
  return Item ? fromItem(Item) : undefined;
}

export type NewAdministrator = Omit<Administrator, 'id' | 'created' | 'updated'>;

export async function createAdministrator(input: NewAdministrator): Promise<Administrator> {
  const id = await allocateIds('ADMIN');
  const stamp = now().toISOString();
  const admin: Administrator = { ...input, login: input.login.trim(), id, created: stamp, updated: stamp };
  try {
    await transactWrite([
      labelled('login', {
        Put: {
          TableName: tableName(),
          Item: { ...keys.unique('ADMIN_LOGIN', normalisedLogin(admin.login)), adminId: id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
      labelled('email', {
        Put: {
          TableName: tableName(),
          Item: { ...keys.unique('ADMIN_EMAIL', normalisedEmail(admin.email)), adminId: id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.administrator(id),
            ...keys.administratorIndexes(admin.login, admin.email),
            entity: 'Administrator',
            ...admin,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed('login')) {
      throw new Conflict(`The login "${admin.login}" is taken.`, 'login_taken');
    }
    if (error instanceof TransactionCancelled && error.conditionFailed('email')) {
      throw new Conflict(`The email "${admin.email}" belongs to another administrator.`, 'email_taken');
    }
    throw error;
  }
  return admin;
}

/**
 * The transaction action that replaces a password hash, only if it is still `expected` (no
 * lost update). A new password ends every session in the same write (raises the session
 * version); a rehash of the same password (`endSessions` false) does not.
 */
export const passwordChange = (id: number, newHash: string, expected: string, endSessions = true) => ({
  Update: {
    TableName: tableName(),
    Key: keys.administrator(id),
    UpdateExpression: `SET passwordHash = :new, updated = :now${endSessions ? ` ${END_SESSIONS_CLAUSE}` : ''}`,
    ConditionExpression: 'passwordHash = :expected',
    ExpressionAttributeValues: {
      ':new': newHash,
      ':expected': expected,
      ':now': now().toISOString(),
      ...(endSessions ? END_SESSIONS_VALUES : {}),
    },
  },
});

/** Replaces the hash if it is still `expected`; false when someone changed it in between. */
export async function replacePasswordHash(
  id: number,
  newHash: string,
  expected: string,
  endSessions = true,
): Promise<boolean> {
  try {
    await db.send(new UpdateCommand(passwordChange(id, newHash, expected, endSessions).Update));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Pins the identity-provider user on the record at first sign-in; later sign-ins must
 * carry the same `sub`. False when the record is linked to another provider user.
 */
export async function linkIdentity(id: number, sub: string, username: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.administrator(id),
        UpdateExpression: 'SET idpSub = :sub, idpUsername = :username',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(idpSub) OR idpSub = :sub)',
        ExpressionAttributeValues: { ':sub': sub, ':username': username },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
