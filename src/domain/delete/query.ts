// Which documents a delete-by-query names: older than a date, one source, or a JSON body (with the
// line and column where invalid JSON is wrong), and the --expect count typed ahead.

export type Query = Record<string, unknown>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The field the platform stamps on every document, and the one naming its sources. */
export const MODIFIED_AT = 'modified_at';
export const SOURCES = 'assoc:sources';

const RELATIVE_UNITS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `now` moved back n calendar years (NaN when that leaves the dates Date can hold: setUTCFullYear says so). */
function yearsBack(now: number, n: number): number {
  const d = new Date(now);
  return d.setUTCFullYear(d.getUTCFullYear() - n);
}

/** The earliest instant an older-than may name: 0001-01-01, the first four-digit ISO year (what Elasticsearch's date format reads). */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z');

/**
 * Whether y-m-d is a day of the calendar: Date.parse turns 2026-02-31 into March 3 (it refuses
 * month 00 or 13 and day 00 itself, so m and d are 1-12 and 1-31 here).
 */
function isCalendarDay(y: number, m: number, d: number): boolean {
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return d <= days;
}

/**
 * "90d", "12w", "36h" (before `now`) or an ISO date ("2026-01-31", "2026-01-31T12:00:00Z"),
 * resolved to the absolute instant the operator is shown before anything runs.
 */
export function parseOlderThan(input: string, now: number): Parsed<string> {
  const t = input.trim();
  const rel = /^(\d+)([hdwy])$/i.exec(t);
  if (rel) {
    const n = Number(rel[1]);
    if (n === 0) return { ok: false, error: `--older-than "${input}" would match every document: give a positive age such as 90d` };
    const unit = rel[2].toLowerCase();
    // A year is a calendar year back (as Elasticsearch's now-1y), not 365 days: 1y on 1 March of a
    // leap year reaches 1 March of the year before.
    const ms = unit === 'y' ? yearsBack(now, n) : now - n * RELATIVE_UNITS[unit];
    // A huge age overflows Date (toISOString throws): refuse it in words, before anything renders or is sent.
    if (!Number.isFinite(ms) || ms < EARLIEST_MS) {
      const max = unit === 'y' ? new Date(now).getUTCFullYear() - 1 : Math.floor((now - EARLIEST_MS) / RELATIVE_UNITS[unit]);
      return { ok: false, error: `--older-than "${input}" reaches back before the year 1: give an age of at most ${max}${unit}` };
    }
    return { ok: true, value: new Date(ms).toISOString() };
  }
  const d = parseIsoInstant(t);
  if (d === 'not-iso')
    return {
      ok: false,
      error: `--older-than "${input}" is neither an age (90d, 12w, 36h, 1y) nor an ISO date (2026-01-31 or 2026-01-31T12:00:00Z): give one of those`,
    };
  if (d === 'not-a-day')
    return {
      ok: false,
      error: `--older-than "${input}" is not a day of the calendar (month 01-12, and no such day in that month): give a real date such as 2026-01-31`,
    };
  if (d.ms > now)
    return { ok: false, error: `--older-than "${input}" is in the future, so it would match every document: give a past date` };
  return { ok: true, value: new Date(d.ms).toISOString() };
}

/**
 * An ISO date ("2026-01-31", midnight UTC) or a time with its zone ("2026-01-31T12:00:00Z"): a
 * time without a zone would depend on this machine's zone, so it must carry one.
 */
function parseIsoInstant(t: string): { ms: number; dateOnly: boolean } | 'not-iso' | 'not-a-day' {
  const day = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/i.exec(t);
  const iso = !day
    ? null
    : day[4] === undefined
      ? `${t}T00:00:00Z`
      : /^T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(day[4])
        ? t
        : null;
  const ms = iso === null ? NaN : Date.parse(iso);
  if (Number.isNaN(ms)) return 'not-iso';
  if (!isCalendarDay(Number(day![1]), Number(day![2]), Number(day![3]))) return 'not-a-day';
  return { ms, dateOnly: day![4] === undefined };
}

/**
 * The seed's inclusive bound ("range on modified_at with lte <timestamp>"): an ISO time with its
 * zone, or a date, which means up to and including the last millisecond of that day (UTC), the
 * way Elasticsearch itself rounds a date given to lte. Resolved to the instant that is sent and shown.
 */
export function parseUntil(input: string, now: number): Parsed<string> {
  const d = parseIsoInstant(input.trim());
  if (d === 'not-iso')
    return {
      ok: false,
      error: `--until "${input}" is not an ISO timestamp: give one with its zone such as 2026-01-31T12:00:00Z, or a date such as 2026-01-31 (up to its end)`,
    };
  if (d === 'not-a-day')
    return {
      ok: false,
      error: `--until "${input}" is not a day of the calendar (month 01-12, and no such day in that month): give a real date such as 2026-01-31`,
    };
  const ms = d.dateOnly ? d.ms + 86_400_000 - 1 : d.ms;
  if (ms >= now)
    return { ok: false, error: `--until "${input}" is not in the past, so it would match every document: give a past timestamp` };
  return { ok: true, value: new Date(ms).toISOString() };
}

/** modified_at up to and including the instant (lte), as the seed writes it. */
export function untilQuery(isoInstant: string): Query {
  return { range: { [MODIFIED_AT]: { lte: isoInstant } } };
}

export function olderThanQuery(isoInstant: string): Query {
  return { range: { [MODIFIED_AT]: { lt: isoInstant } } };
}

export function sourceQuery(sourceId: string): Parsed<Query> {
  if (sourceId.trim() === '') return { ok: false, error: 'no source given: --source takes a source id such as src-crm' };
  return { ok: true, value: { term: { [SOURCES]: sourceId } } };
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Where JSON.parse gave up. V8 names a position for most errors but not for an unexpected token,
 * so that case is found by scanning: the offset of the first character that cannot continue a
 * JSON value. Null when the text parses.
 */
export function jsonErrorOffset(text: string): { offset: number; message: string } | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    const message = (e as Error).message
      .replace(/,? (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
      .replace(/ in JSON at position \d+.*$/s, '');
    const pos = /at position (\d+)/.exec((e as Error).message);
    if (pos) return { offset: Number(pos[1]), message };
    if (/end of JSON input/.test(message)) return { offset: text.length, message };
    return { offset: scanJsonError(text), message };
  }
}

/** Thrown by scanJsonError's walk to stop at the first invalid character. */
class JsonStop extends Error {
  constructor(readonly at: number) {
    super(`invalid JSON at ${at}`);
  }
}

/** A minimal recursive-descent walk that returns the offset of the first invalid character. */
function scanJsonError(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const fail = (): never => {
    throw new JsonStop(i);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    const lit = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!lit) fail();
    i += lit![0].length;
    // "tru}" fails at the first character that does not spell the literal.
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
  };
  try {
    value();
    ws();
    return i;
  } catch (e) {
    const at = (e as JsonStop).at;
    // A literal that starts right but is cut short ("tru") is wrong where it stops matching.
    const m = /^[a-z]+/.exec(text.slice(at));
    if (m) {
      for (const word of ['true', 'false', 'null']) {
        let k = 0;
        while (k < m[0].length && word[k] === m[0][k]) k++;
        if (k > 0) return at + k;
      }
    }
    return at;
  }
}

/**
 * A request body from a file (or pasted): it must parse and have a top-level "query" object, as
 * a logged search body does (seed, rule 2), so it works as-is. Only the query is sent.
 */
export function parseQueryBody(text: string, name: string): Parsed<{ query: Query; ignored: string[] }> {
  const err = jsonErrorOffset(text);
  if (err) {
    const { line, column } = lineColumn(text, err.offset);
    return {
      ok: false,
      error: `${name} is not valid JSON at line ${line}, column ${column} (${err.message}): fix it there; nothing was sent`,
    };
  }
  const body: unknown = JSON.parse(text);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return {
      ok: false,
      error: `${name} must hold a JSON object with a top-level "query", like {"query": {"term": {"assoc:sources": "src-crm"}}}`,
    };
  const query = (body as Record<string, unknown>).query;
  if (query === undefined)
    return { ok: false, error: `${name} has no top-level "query": wrap the query as {"query": {...}} (nothing was sent)` };
  if (query === null || typeof query !== 'object' || Array.isArray(query) || Object.keys(query).length === 0)
    return { ok: false, error: `"query" in ${name} must be a non-empty object such as {"match_all": {}}` };
  return { ok: true, value: { query: query as Query, ignored: Object.keys(body).filter((k) => k !== 'query') } };
}

/** Parses --expect N: a whole number of documents, as the operator read it in the preview. */
export function parseExpected(raw: string): Parsed<number> {
  const t = raw.trim().replace(/,/g, '');
  if (!/^\d+$/.test(t))
    return { ok: false, error: `--expect "${raw}" is not a number of documents: give the count the preview showed, e.g. --expect 1234` };
  // Beyond 2^53 the number is no longer exact, so it could not match the preview's count.
  if (!Number.isSafeInteger(Number(t)))
    return { ok: false, error: `--expect "${raw}" is larger than any count a preview shows: give the count the preview showed` };
  return { ok: true, value: Number(t) };
}
