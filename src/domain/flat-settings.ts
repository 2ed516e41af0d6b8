// Settings as Elasticsearch answers them (nested unless flat_settings), as dotted keys: the one
// walk behind every reader of settings (the panes' reads, cluster settings, allocation limits, inspect).

// A value as text, a list comma-joined; an object where a scalar belongs shows as [object Object],
// never as its (untrusted, unbounded) JSON.
const joinedText = (v: unknown): string =>
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- see above
  Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);

/**
 * Nested settings ({"watermark":{"low":{"max_headroom":..}}}) as dotted keys, what flat_settings
 * does; a flat object stays as it is. The one walk every settings reader uses: `leaf` makes each
 * value (a list is a value, never walked), undefined leaves its key out. By default, text.
 */
export function flattenSettings<T = string>(obj: unknown, leaf: (v: unknown) => T | undefined = joinedText as never): Record<string, T> {
  const out: Record<string, T> = {};
  const walk = (v: unknown, key: string): void => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, key ? `${key}.${k}` : k);
    } else if (key) {
      const value = leaf(v);
      if (value !== undefined) out[key] = value;
    }
  };
  walk(obj, '');
  return out;
}
