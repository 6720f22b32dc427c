import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock.ts';
import type { Permission } from '../routes.ts';
import { Conflict } from '../http/errors.ts';
import { db, tableName, transactWrite, TransactionCancelled } from './client.ts';
import { allocateIds } from './counters.ts';
import { keys } from './keys.ts';

/**
 * Administrators (the staff who use the admin SPA). One item each; GSI1 finds one by
 * login, and a `UNIQUE#ADMIN_LOGIN#<login>` item, written in the same transaction,
 * keeps logins unique.
 */
export interface Administrator {
  id: number;
  login: string;
  email: string;
  name: string;
  permissions: Permission[];
  /** 1: a vendor's user, who must sign in through the vendor channel (spec). */
  vendorUser: 0 | 1;
  /** scrypt PHC string; absent for identity-provider users. */
  passwordHash?: string;
  created: string;
  updated: string;
}

/** What `/auth/me` and login answers show: never the hash. */
export type AdministratorProfile = Omit<Administrator, 'passwordHash'>;

export const toProfile = ({ passwordHash, ...profile }: Administrator): AdministratorProfile => profile;

const normalisedLogin = (login: string) => login.trim().toLowerCase();

const fromItem = (item: Record<string, unknown>): Administrator => {
  const { PK, SK, GSI1PK, GSI1SK, entity, ...admin } = item;
  return admin as unknown as Administrator;
};

export async function findAdministratorByLogin(login: string): Promise<Administrator | undefined> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.administratorLogin(login) },
      Limit: 1,
    }),
  );
  return Items?.[0] ? fromItem(Items[0]) : undefined;
}

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
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.unique('ADMIN_LOGIN', normalisedLogin(admin.login)), adminId: id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.administrator(id),
            GSI1PK: keys.administratorLogin(admin.login),
            GSI1SK: 'ADMIN',
            entity: 'Administrator',
            ...admin,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(0)) {
      throw new Conflict(`The login "${admin.login}" is taken.`);
    }
    throw error;
  }
  return admin;
}
