import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppLayout } from './components/AppLayout';
import { AlertRulePage } from './pages/alerts/AlertRulePage';
import { AlertsPage } from './pages/alerts/AlertsPage';
import { CostPage } from './pages/CostPage';
import { LatencyPage } from './pages/LatencyPage';
import { LoopsPage } from './pages/LoopsPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OverviewPage } from './pages/OverviewPage';
import { ReliabilityPage } from './pages/ReliabilityPage';
import { RunDetailPage } from './pages/RunDetailPage';
import { RunsPage } from './pages/RunsPage';
import { SessionsPage } from './pages/SessionsPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { TimeRangeGuard } from './pages/TimeRangeGuard';

export function createRouter() {
  return createBrowserRouter([
    {
      path: '/',
      element: <AppLayout />,
      children: [
        {
          element: <TimeRangeGuard />,
          children: [
            { index: true, element: <OverviewPage /> },
            { path: 'reliability', element: <ReliabilityPage /> },
            { path: 'latency', element: <LatencyPage /> },
            { path: 'loops', element: <LoopsPage /> },
            { path: 'cost', element: <CostPage /> },
            { path: 'runs', element: <RunsPage /> },
            { path: 'sessions', element: <SessionsPage /> },
          ],
        },
        { path: 'runs/:runId', element: <RunDetailPage /> },
        {
          path: 'alerts',
          children: [
            { index: true, element: <AlertsPage /> },
            { path: 'rules/:ruleId', element: <AlertRulePage /> },
          ],
        },
        { path: 'settings', element: <SettingsPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(createRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
