import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DestinationChange } from '../api/alertsApi';
import {
  createAlertRule,
  createDestination,
  deleteAlertRule,
  deleteDestination,
  redeliverNotification,
  rotateDestinationSecret,
  sendTestNotification,
  updateAlertRule,
  updateDestination,
} from '../api/alertsApi';
import type { AlertRuleSpec, DestinationInput } from '@telltale/api-contract';
import { ALERTS_KEY } from './useAlerts';

/** Every edit refreshes every alerts query: rules, states, history and the delivery log hang together. */
function useRefreshAlerts(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
}

/** Creates a rule (no `ruleId`) or replaces one. */
export function useSaveAlertRule(ruleId?: string) {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: (spec: AlertRuleSpec) => (ruleId === undefined ? createAlertRule(spec) : updateAlertRule(ruleId, spec)),
    onSuccess: refresh,
  });
}

export function useDeleteAlertRule() {
  const refresh = useRefreshAlerts();
  return useMutation({ mutationFn: (ruleId: string) => deleteAlertRule(ruleId), onSuccess: refresh });
}

export function useCreateDestination() {
  const refresh = useRefreshAlerts();
  return useMutation({ mutationFn: (input: DestinationInput) => createDestination(input), onSuccess: refresh });
}

export function useUpdateDestination() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: DestinationChange }) => updateDestination(id, change),
    onSuccess: refresh,
  });
}

export function useDeleteDestination() {
  const refresh = useRefreshAlerts();
  return useMutation({ mutationFn: (id: string) => deleteDestination(id), onSuccess: refresh });
}

export function useSendTestNotification() {
  const refresh = useRefreshAlerts();
  return useMutation({ mutationFn: (id: string) => sendTestNotification(id), onSuccess: refresh });
}

/** A new signing secret; the previous one keeps signing until the next rotation. */
export function useRotateSecret() {
  const refresh = useRefreshAlerts();
  return useMutation({ mutationFn: (id: string) => rotateDestinationSecret(id, 1), onSuccess: refresh });
}

export function useRedeliver() {
  const refresh = useRefreshAlerts();
  return useMutation({ mutationFn: (id: string) => redeliverNotification(id), onSuccess: refresh });
}
