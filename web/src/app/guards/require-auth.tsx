import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../../components/full-page-loader';
import { refreshIfStale } from '../../lib/api-client';
import { session, SESSION_CHECK_INTERVAL_MS } from '../../lib/session';
import { useSession } from '../../lib/use-session';
import { useCurrentUserQuery } from '../../features/auth/api/get-current-user';

/**
 * Guards everything under /app: without a session the user goes to /login
 * (and comes back after logging in). While logged in, the access token is
 * refreshed on navigation when it is 20 minutes old, and by a background check
 * every 10 minutes; the user record is re-read once per visit so rights stay
 * current.
 */
export function RequireAuth() {
  const { tokens, user } = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  const loggedIn = tokens !== null;
  const userQuery = useCurrentUserQuery(loggedIn);

  useEffect(() => {
    if (loggedIn) void refreshIfStale();
  }, [loggedIn, location.key]);

  useEffect(() => {
    if (!loggedIn) return undefined;
    const timer = window.setInterval(() => void refreshIfStale(), SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [loggedIn]);

  useEffect(() => {
    if (userQuery.data && session.isLoggedIn()) session.setUser(userQuery.data);
  }, [userQuery.data]);

  const userMissing = loggedIn && !user;
  useEffect(() => {
    // Tokens without a user record that the server will not give: start over.
    if (userMissing && userQuery.isError) session.clear('expired');
  }, [userMissing, userQuery.isError]);

  if (!loggedIn) {
    // After a deliberate log-out the next login starts at home; otherwise it
    // comes back here.
    const state = session.peekLogoutReason() === 'user' ? null : { from: location.pathname + location.search };
    return <Navigate to="/login" replace state={state} />;
  }
  if (!user) {
    // Tokens without a user record (an older tab, cleared storage): wait for GET /user/.
    return <FullPageLoader label={t('general.loading')} />;
  }
  return <Outlet />;
}
