import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '#shared/auth/permissions';
import { getAdministrator } from '#shared/identity/data/administrators';
import { createStaffMember, UsageError } from '../../bin/maintenance/create-administrator.ts';
import { legacyLogin } from '../support/staff.ts';
import { newAddress } from '../support/mail.ts';

const email = () => newAddress('first-admin');
const PASSWORD = 'first-admin-password-1';

describe('bin/maintenance/create-administrator (the first administrator of a new stage)', () => {
  it('creates a record with every permission that signs in with the piped password', async () => {
    const address = email();
    const admin = await createStaffMember({
      email: address,
      name: 'Olive Ops',
      permissions: 'all',
      vendor: false,
      password: PASSWORD,
    });
    expect(admin).toMatchObject({ login: address, email: address, permissions: [...PERMISSIONS], vendorUser: 0 });
    const login = await legacyLogin(address, PASSWORD);
    expect(login.status).toBe(200);
    expect(login.body.data.user.permissions).toEqual([...PERMISSIONS]);
  });

  it('creates an identity-provider record without a password, with the permissions listed', async () => {
    const admin = await createStaffMember({
      email: email(),
      name: 'Gate Lead',
      permissions: 'checkin:scan, tickets:read',
      vendor: false,
    });
    const stored = await getAdministrator(admin.id);
    expect(stored?.permissions).toEqual(['checkin:scan', 'tickets:read']);
    expect(stored?.passwordHash).toBeUndefined();
  });

  it('refuses unknown permissions, short passwords and bad addresses before writing anything', async () => {
    const address = email();
    await expect(
      createStaffMember({ email: address, name: 'X', permissions: 'tickets:read,root', vendor: false }),
    ).rejects.toThrow(/unknown: root/);
    await expect(
      createStaffMember({ email: address, name: 'X', permissions: 'all', vendor: false, password: 'short' }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      createStaffMember({ email: 'not-an-address', name: 'X', permissions: 'all', vendor: false }),
    ).rejects.toBeInstanceOf(UsageError);
    // Nothing was written: the address is still free.
    await expect(
      createStaffMember({ email: address, name: 'X', permissions: 'all', vendor: false }),
    ).resolves.toMatchObject({ login: address });
  });

  it('refuses a second record with the same email', async () => {
    const address = email();
    await createStaffMember({ email: address, name: 'One', permissions: 'all', vendor: false });
    await expect(createStaffMember({ email: address, name: 'Two', permissions: 'all', vendor: false })).rejects.toThrow(
      /is taken/,
    );
  });
});
