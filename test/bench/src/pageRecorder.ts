import { PROBLEM_SELECTOR, type Mark } from './dashboardPages.js';

/** What the recorder saw in one page load, all times in ms since navigation start (the page's `performance.now()`). */
export interface Recording {
  /** Per mark name: when it first matched, at the next animation frame (about when it was painted); absent: never. */
  marks: Record<string, number>;
  /** Per mark name: when the DOM first held it (the mutation observer's callback, before paint). */
  domMarks: Record<string, number>;
  /** Navigation timing: the HTML's response end and DOMContentLoaded end. */
  htmlMs: number;
  domContentLoadedMs: number;
  /** Every API call of the page (resource timing). */
  api: ApiCall[];
  /** Scripts and styles fetched (bytes over the wire, the last one's response end). */
  assets: { count: number; transferBytes: number; lastEndMs: number };
  /** Test ids (or text) of placeholders showing an error or empty state when the recording was read. */
  problems: string[];
}

export interface ApiCall {
  /** The route under /api/v1 with the parameters that tell calls of one route apart (groupBy, orderBy, limit, buckets). */
  route: string;
  startMs: number;
  endMs: number;
  durationMs: number;
}

const GLOBAL = '__telltaleDashBench';

/**
 * The script installed in every document of the bench's browser context
 * before the page's own scripts run: it stores the read key where the
 * dashboard looks for it, and watches the DOM with a MutationObserver,
 * noting when each mark's selector first matches — `performance.now()` in
 * the observer's callback (the DOM has the data) and in the next animation
 * frame (about when it is painted). It stops watching once every mark has
 * been seen.
 */
export function recorderScript(marks: readonly Mark[], readKey: string | undefined): string {
  const spec = JSON.stringify(marks.map((m) => ({ name: m.name, selector: m.selector })));
  return `(() => {
  ${readKey === undefined ? '' : `try { localStorage.setItem('telltale.readKey', ${JSON.stringify(readKey)}); } catch {}`}
  const marks = ${spec};
  const state = { marks: {}, domMarks: {}, done: marks.length === 0 };
  window.${GLOBAL} = state;
  let observer;
  const check = () => {
    const now = performance.now();
    let left = 0;
    for (const m of marks) {
      if (state.domMarks[m.name] !== undefined) continue;
      if (document.querySelector(m.selector) === null) { left++; continue; }
      state.domMarks[m.name] = now;
      requestAnimationFrame(() => { state.marks[m.name] = performance.now(); state.done = marks.every((k) => state.marks[k.name] !== undefined); });
    }
    if (left === 0 && observer) observer.disconnect();
  };
  observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status', 'data-annotations', 'data-loops', 'data-testid'] });
  check();
})();`;
}

/** True once every mark has been painted (evaluated in the page). */
export const RECORDING_DONE = `window.${GLOBAL} !== undefined && window.${GLOBAL}.done === true`;

/** Reads the recording out of the page (evaluated in the page; returns a JSON-serialisable Recording). */
export const READ_RECORDING = `(() => {
  const state = window.${GLOBAL} ?? { marks: {}, domMarks: {} };
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const keep = ['groupBy', 'orderBy', 'limit', 'buckets', 'metric'];
  const api = [];
  let assetCount = 0, assetBytes = 0, assetsEnd = 0;
  for (const r of resources) {
    const url = new URL(r.name);
    if (url.pathname.startsWith('/api/v1/')) {
      const params = keep.filter((k) => url.searchParams.has(k)).map((k) => k + '=' + url.searchParams.get(k));
      if (url.searchParams.has('runIds')) params.push('runIds');
      api.push({ route: url.pathname.slice(8).replace(new RegExp('^(runs|traces)/[^/]+'), '$1/:id') + (params.length > 0 ? '?' + params.join('&') : ''), startMs: r.startTime, endMs: r.responseEnd, durationMs: r.responseEnd - r.startTime });
    } else if (r.initiatorType === 'script' || r.initiatorType === 'link' || r.initiatorType === 'css') {
      assetCount++;
      assetBytes += r.transferSize;
      assetsEnd = Math.max(assetsEnd, r.responseEnd);
    }
  }
  const problems = Array.from(document.querySelectorAll(${JSON.stringify(PROBLEM_SELECTOR)}))
    .map((el) => (el.getAttribute('data-testid') ?? '') + ':' + (el.getAttribute('data-status') ?? 'error'));
  return {
    marks: state.marks,
    domMarks: state.domMarks,
    htmlMs: nav ? nav.responseEnd : NaN,
    domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : NaN,
    api,
    assets: { count: assetCount, transferBytes: assetBytes, lastEndMs: assetsEnd },
    problems,
  };
})()`;
