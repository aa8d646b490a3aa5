import { NavLink, Outlet } from 'react-router';
import { FilterNavLink } from './FilterLink';

/** The frame of every page: top navigation (carrying the current filters) and the page below it. */
export function AppLayout() {
  return (
    <div className="app">
      <header className="topnav">
        <NavLink to="/" className="brand" aria-label="Telltale home">
          <span className="brand-mark" aria-hidden="true" />
          Telltale
        </NavLink>
        <nav className="topnav-links" aria-label="Main">
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
