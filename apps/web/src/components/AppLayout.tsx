import { NavLink, Outlet } from 'react-router';

/** The frame of every page: top navigation and the page below it. */
export function AppLayout() {
  return (
    <div className="app">
      <header className="topnav">
        <NavLink to="/runs" className="brand" aria-label="Telltale home">
          <span className="brand-mark" aria-hidden="true" />
          Telltale
        </NavLink>
        <nav className="topnav-links" aria-label="Main">
          <NavLink to="/runs" className={({ isActive }) => (isActive ? 'topnav-link active' : 'topnav-link')}>
            Runs
          </NavLink>
          <NavLink to="/alerts" className={({ isActive }) => (isActive ? 'topnav-link active' : 'topnav-link')} data-testid="nav-alerts">
            Alerts
          </NavLink>
        </nav>
      </header>
      <main className="page">
        <Outlet />
      </main>
    </div>
  );
}
