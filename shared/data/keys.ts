/**
 * Key builders: every key of the table is spelled here and nowhere else.
 *
 * | entity            | PK                      | SK                | GSI1PK / GSI1SK                              |
 * |-------------------|-------------------------|-------------------|----------------------------------------------|
 * | shipping method   | SHIPPING_METHOD#<id>    | SHIPPING_METHOD   | SHIPPING_METHODS / SHIPPING_METHOD#<id:10>   |
 * | administrator     | ADMIN#<id>              | ADMIN             | ADMIN_LOGIN#<login> / ADMIN                  |
 * |                   |                         |                   | GSI2: ADMIN_EMAIL#<email> / ADMIN            |
 * | login in flight   | OAUTH_LOGIN#<ref>       | OAUTH_LOGIN       | (TTL `expiresAt`: PKCE verifier, 10 min)     |
 * | reset token       | RESET_TOKEN#<sha256>    | RESET_TOKEN       | RESET_TOKENS#ADMIN#<id> / <created ISO>      |
 * | rate window       | RATE#<name>#<subject>   | RATE              | (TTL `expiresAt`)                            |
 * | unique value      | UNIQUE#<kind>#<value>   | UNIQUE            |                                              |
 * | id sequence       | SEQUENCE#<name>         | SEQUENCE          |                                              |
 * | aggregate count   | COUNT#<name>            | COUNT             |                                              |
 */
export type Key = { PK: string; SK: string };

/** Zero-padded so that ids sort numerically inside a string sort key. */
export const sortableId = (id: number): string => String(id).padStart(10, '0');

export const keys = {
  shippingMethod: (id: number): Key => ({ PK: `SHIPPING_METHOD#${id}`, SK: 'SHIPPING_METHOD' }),
  shippingMethodsIndex: 'SHIPPING_METHODS',
  shippingMethodIndexSort: (id: number) => `SHIPPING_METHOD#${sortableId(id)}`,

  administrator: (id: number): Key => ({ PK: `ADMIN#${id}`, SK: 'ADMIN' }),
  administratorLogin: (login: string) => `ADMIN_LOGIN#${login.trim().toLowerCase()}`,
  administratorEmail: (email: string) => `ADMIN_EMAIL#${email.trim().toLowerCase()}`,

  oauthLogin: (ref: string): Key => ({ PK: `OAUTH_LOGIN#${ref}`, SK: 'OAUTH_LOGIN' }),
  resetToken: (tokenHash: string): Key => ({ PK: `RESET_TOKEN#${tokenHash}`, SK: 'RESET_TOKEN' }),
  resetTokensOf: (adminId: number) => `RESET_TOKENS#ADMIN#${adminId}`,
  rateWindow: (name: string, subject: string): Key => ({ PK: `RATE#${name}#${subject}`, SK: 'RATE' }),

  unique: (kind: string, value: string): Key => ({ PK: `UNIQUE#${kind}#${value}`, SK: 'UNIQUE' }),
  sequence: (name: string): Key => ({ PK: `SEQUENCE#${name}`, SK: 'SEQUENCE' }),
  count: (name: string): Key => ({ PK: `COUNT#${name}`, SK: 'COUNT' }),
};
