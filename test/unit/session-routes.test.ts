import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';

describe('the session check on every authenticated route', () => {
  it('has table access on every route a token opens (the middleware reads the session version)', () => {
    const without = routes
      .filter((row) => row.auth.kind !== 'public' && !row.uses.table)
      .map((row) => `${row.method} ${row.path}`);
    expect(without).toEqual([]);
  });
});
