import type { ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { linkWithFilters } from '../prepare/dashboardFilters';

/** A link to another dashboard page that keeps the current time range and filters. */
export function FilterLink({
  to,
  className,
  children,
  testId,
}: {
  to: string;
  className?: string;
  children: ReactNode;
  testId?: string;
}) {
  const location = useLocation();
  return (
    <Link to={linkWithFilters(to, location.search)} className={className} data-testid={testId}>
      {children}
    </Link>
  );
}

/** A top-navigation link that keeps the current time range and filters. */
export function FilterNavLink({ to, children, end }: { to: string; children: ReactNode; end?: boolean }) {
  const location = useLocation();
  return (
    <NavLink
      to={linkWithFilters(to, location.search)}
      end={end ?? false}
      className={({ isActive }) => (isActive ? 'topnav-link active' : 'topnav-link')}
      data-testid={`nav-${to === '/' ? 'overview' : to.slice(1)}`}
    >
      {children}
    </NavLink>
  );
}
