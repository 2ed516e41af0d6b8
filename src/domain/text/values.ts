// Parsers of plain values shared by several commands, refused in words before anything is sent.

/** The longest a command watches the cluster: a week (beyond that a number is surely a typo). */
export const MAX_WATCH_SECONDS = 7 * 24 * 3600;

/** --timeout SECONDS: a positive number of seconds, at most a week. */
export function parseTimeoutSeconds(text: string, example = 60): { ok: true; value: number } | { ok: false; error: string } {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t) || Number(t) <= 0)
    return { ok: false, error: `--timeout "${text}" is not a number of seconds: give e.g. --timeout ${example}` };
  if (Number(t) > MAX_WATCH_SECONDS)
    return { ok: false, error: `--timeout "${text}" is more than a week (${MAX_WATCH_SECONDS} seconds): give e.g. --timeout ${example}` };
  return { ok: true, value: Number(t) };
}
