import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../../lib/use-session';

/** Authentication pages: a logged-in user is sent home (or back where the login began). */
export function GuestOnly() {
  const { tokens, user } = useSession();
  const location = useLocation();
  if (tokens && user) {
    const from = (location.state as { from?: unknown } | null)?.from;
    const target = typeof from === 'string' && from.startsWith('/app') ? from : '/app';
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}
