import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HistoryQuery, NotificationsQuery } from '../api/alertsApi';
import {
  fetchAlertHistory,
  fetchAlertRule,
  fetchAlertRules,
  fetchAlertStates,
  fetchDestinations,
  fetchNotification,
  fetchNotifications,
} from '../api/alertsApi';

/** Every alerts query key starts here, so an edit can refresh them all at once. */
export const ALERTS_KEY = ['alerts'] as const;

/** States change on the evaluator's schedule: poll them (and what they drive) while a page is open. */
const LIVE_MS = 5_000;

export function useAlertRules() {
  return useQuery({ queryKey: [...ALERTS_KEY, 'rules'], queryFn: ({ signal }) => fetchAlertRules({ signal }) });
}

/** One rule with the current state of each of its groups. */
export function useAlertRule(ruleId: string) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'rule', ruleId],
    queryFn: ({ signal }) => fetchAlertRule(ruleId, { signal }),
    refetchInterval: LIVE_MS,
  });
}

export function useAlertStates() {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'states'],
    queryFn: ({ signal }) => fetchAlertStates(undefined, { signal }),
    refetchInterval: LIVE_MS,
  });
}

/** One page of state changes, newest first; the previous page stays on screen while the next one loads. */
export function useAlertHistory(query: HistoryQuery) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'history', query],
    queryFn: ({ signal }) => fetchAlertHistory(query, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_MS,
  });
}

export function useAlertDestinations() {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'destinations'],
    queryFn: ({ signal }) => fetchDestinations({ signal }),
  });
}

export function useAlertNotifications(query: NotificationsQuery) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'notifications', query],
    queryFn: ({ signal }) => fetchNotifications(query, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_MS,
  });
}

/** One notification with every delivery attempt (loaded when its row is opened). */
export function useAlertNotification(notificationId: string) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'notification', notificationId],
    queryFn: ({ signal }) => fetchNotification(notificationId, { signal }),
    refetchInterval: LIVE_MS,
  });
}
