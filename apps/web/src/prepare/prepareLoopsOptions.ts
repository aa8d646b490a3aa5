import { LOOP_KINDS, LOOP_ORDERS, type LoopKind, type LoopOrder } from '@telltale/semconv';

export const LOOPS_PAGE_SIZE = 50;

/** The loops page's own URL options: `?kind=ping_pong&orderBy=wasted_cost&page=2`. */
export function prepareLoopsOptions(search: URLSearchParams): {
  kind: LoopKind | undefined;
  orderBy: LoopOrder;
  page: number;
} {
  const page = Number(search.get('page'));
  return {
    kind: LOOP_KINDS.find((k) => k === search.get('kind')),
    orderBy: LOOP_ORDERS.find((o) => o === search.get('orderBy')) ?? 'wasted_cost',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}
