// Scroll contexts near search.max_open_scroll_context (a per-node limit). Pure.
import type { NodeSearchStats } from '../types';
import { FIXES, type Finding } from './finding';

/** From this share of the limit on, a warning. */
export const SCROLL_WARN_SHARE = 0.8;

export function scrollFindings(stats: readonly NodeSearchStats[], limit: number): Finding[] {
  return stats.map((s) => {
    const share = limit > 0 ? s.scrollCurrent / limit : 0;
    const severity = share >= 1 ? 'critical' : share >= SCROLL_WARN_SHARE ? 'warn' : 'ok';
    return {
      id: `scroll.contexts.${s.name}`,
      family: 'scroll' as const,
      severity,
      node: s.name,
      finding:
        severity === 'ok'
          ? `${s.scrollCurrent} open scroll contexts of ${limit} allowed`
          : `${s.scrollCurrent} open scroll contexts, ${Math.round(share * 100)}% of search.max_open_scroll_context ${limit}: new scrolls fail with "Trying to create too many scroll contexts"`,
      evidence: [`scroll_current ${s.scrollCurrent}, open_contexts ${s.openContexts}`, `search.max_open_scroll_context ${limit}`],
      ...(severity === 'ok'
        ? {}
        : {
            remedy: `raise search.max_open_scroll_context (e.g. to ${Math.max(1000, limit * 2)}), or lower the scroll argument of client scan calls from the default 5m to e.g. 1m`,
            fix: FIXES.scroll(Math.max(1000, limit * 2)),
          }),
    };
  });
}
