import { Navigate, Outlet } from 'react-router';
import { isFacilityManagementMember } from '../../lib/ability';
import { useSession } from '../../lib/use-session';

/** FM team members who open /app go to the kanban of their first board instead of the dashboard. */
export function FacilityTeamRedirect() {
  const { user } = useSession();
  if (isFacilityManagementMember(user)) return <Navigate to="/app/table/board/kanban" replace />;
  return <Outlet />;
}
