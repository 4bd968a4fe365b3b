import { api } from '../../../lib/api-client';
import { session } from '../../../lib/session';

/**
 * POST /logout with the refresh token, then clears the local session whatever
 * the server answered.
 */
export async function logout(): Promise<void> {
  const refreshToken = session.getRefreshToken();
  try {
    if (refreshToken) await api.post<void>('/logout', { user_refresh_token: refreshToken }, { silent: true, timeoutMs: 10_000 });
  } catch (error) {
    console.warn('Logout call failed; clearing the local session anyway', error);
  } finally {
    session.clear('user');
  }
}
