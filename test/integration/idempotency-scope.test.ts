import { describe, expect, it } from 'vitest';
import type { AdminPrincipal } from '#shared/auth/tokens';
import { ValidationError } from '#shared/errors';
import { idempotencyScopeOf } from '#shared/http/idempotency';
import { findRoute } from '#shared/routes';

// The one parser of the header; its scope's route comes from the row, never from a handler's literal.
describe('the Idempotency-Key header', () => {
  const checkIn = findRoute('POST /tickets/{id}/check-in');
  const scanner: AdminPrincipal = {
    kind: 'admin',
    id: 7,
    login: 'gate',
    permissions: ['checkin:scan'],
    vendorUser: false,
    authTime: 0,
  };
  const withKey = (key?: string) => ({
    headers: key === undefined ? {} : { 'idempotency-key': key },
    principal: { ...scanner, permissions: [...scanner.permissions] },
  });

  it('scopes a key to the route row and the caller', () => {
    expect(idempotencyScopeOf(checkIn, withKey('scan-7f3a'))).toEqual({
      route: 'tickets/check-in',
      caller: { kind: 'admin', id: 7 },
      key: 'scan-7f3a',
    });
    expect(idempotencyScopeOf(checkIn, withKey())).toBeUndefined();
  });

  it('is ignored on a route that is not idempotent', () => {
    expect(idempotencyScopeOf(findRoute('GET /tickets'), withKey('scan-7f3a'))).toBeUndefined();
  });

  it('takes 1 to 255 visible ASCII characters, and refuses others with 400', () => {
    expect(idempotencyScopeOf(checkIn, withKey('x'.repeat(255)))?.key).toHaveLength(255);
    expect(() => idempotencyScopeOf(checkIn, withKey('x'.repeat(256)))).toThrow(ValidationError);
    expect(() => idempotencyScopeOf(checkIn, withKey('with space'))).toThrow(ValidationError);
    expect(() => idempotencyScopeOf(checkIn, withKey(''))).toThrow(ValidationError);
  });
});
