import { refreshAdminSession } from '#shared/domain/admin-session';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('POST /auth/refresh', {}, async ({ caller }) => {
  const { cookie } = await refreshAdminSession(caller);
  return { ...single({ refreshed: true }), cookies: [cookie] };
});
