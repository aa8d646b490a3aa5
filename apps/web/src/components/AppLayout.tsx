import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { FilterNavLink } from './FilterLink';

/**
 * The frame of every page: top navigation (carrying the current filters) and
 * the page below it. On a narrow screen the links scroll sideways, the current
 * page's link kept in view.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  const links = useRef<HTMLElement>(null);
  useEffect(() => {
    links.current?.querySelector('.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  return (
    <div className="app">
      <header className="topnav">
        <NavLink to="/" className="brand" aria-label="Telltale home">
          <span className="brand-mark" aria-hidden="true" />
          Telltale
        </NavLink>
        <nav ref={links} className="topnav-links" aria-label="Main">
          <FilterNavLink to="/" end>
            Overview
          </FilterNavLink>
          <FilterNavLink to="/reliability">Reliability</FilterNavLink>
          <FilterNavLink to="/latency">Latency</FilterNavLink>
          <FilterNavLink to="/loops">Loops</FilterNavLink>
          <FilterNavLink to="/cost">Cost</FilterNavLink>
          <FilterNavLink to="/runs">Runs</FilterNavLink>
          <FilterNavLink to="/sessions">Sessions</FilterNavLink>
          <NavLink
            to="/alerts"
            className={({ isActive }) => (isActive ? 'topnav-link active' : 'topnav-link')}
            data-testid="nav-alerts"
          >
            Alerts
          </NavLink>
          <NavLink
            to="/settings"
            className={({ isActive }) => (isActive ? 'topnav-link active' : 'topnav-link')}
            data-testid="nav-settings"
          >
            Settings
          </NavLink>
        </nav>
      </header>
      <main className="page">
        <Outlet />
      </main>
    </div>
  );
}
