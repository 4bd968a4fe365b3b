import { Navigate, Outlet, useLocation, useParams, useSearchParams } from 'react-router';
import type { Permission } from '../../lib/ability';
import { useAbility } from '../../lib/ability-context';
import { useSession } from '../../lib/use-session';
import { decideAccess, type TableRouteKind, tableRoutePermission } from './access';

function Decide({ permissions }: { permissions: readonly Permission[] }) {
  const { tokens } = useSession();
  const ability = useAbility();
  const location = useLocation();
  const decision = decideAccess(tokens !== null, ability, permissions);
  if (decision === 'login') {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  // Inside the app's layout: the menu stays, so the user can go on from there.
  if (decision === 'not-authorized') return <Navigate to="/app/not-authorized" replace />;
  return <Outlet />;
}

/** Renders the child routes only with every one of `permissions`. */
export function RequirePermission({ permissions }: { permissions: readonly Permission[] }) {
  return <Decide permissions={permissions} />;
}

/** Guard of /app/table/:table routes: the action depends on the kind of screen. */
export function RequireTablePermission({ kind, table }: { kind: TableRouteKind; table?: string }) {
  const params = useParams();
  const [search] = useSearchParams();
  const subject = table ?? params.table ?? params.name ?? '';
  return <Decide permissions={[tableRoutePermission(kind, subject, search)]} />;
}
