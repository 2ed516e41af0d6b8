// shardeck incident [--since 2h] [--json] | shardeck incident export --md [--since 2h] [--out FILE]:
// the incident timeline of a cluster (services/timeline.ts): health transitions with the shards
// that caused them, every change in the audit log, recovery steps, task starts, notes. It reads the
// files of this config folder only: it needs no password and sends nothing to the cluster.
import { countOf } from '../domain/text/format';
import { openConfig, getProfile, pickProfileName } from '../config/profiles';
import { OperatorFileRefused, writeOperatorFileExclusive } from '../boundary/operator-file';
import { UsageError } from '../config/files';
import { entryText, parseSince, timelineMarkdown } from '../domain/timeline';
import { displayBlock } from '../domain/text/display-text';
import { urlForMessage } from '../domain/urls';
import { readTimeline, timelineFile } from '../services/timeline';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, printJson, usageError } from './support/guarded';
import { err, out } from './support/output';

const NAME = 'incident';

const incident: CommandModule = {
  summary: 'the incident timeline of a cluster: health transitions, changes, recovery steps, tasks and notes; export --md for a postmortem',
  usage: 'usage: shardeck incident [--since 2h] [--json] | shardeck incident export --md [--since 2h] [--out FILE]',
  group: 'inspect',
  options: { since: { type: 'string' }, md: { type: 'boolean' }, out: { type: 'string' } },
  flagHelp: {
    since: 'only entries newer than this (30m, 2h, 1d; default: all)',
    md: 'export: write Markdown (times in UTC and local, durations between transitions, each change with its request)',
    out: 'export: write to this file (a new one, 0600, or one of your own) instead of standard output',
  },
  examples: [
    'shardeck incident --since 2h',
    'shardeck incident export --md --since 6h --out postmortem-timeline.md',
    'shardeck incident --json | jq ".entries[] | select(.kind==\\"change\\")"',
  ],
  run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, ...extra] = positionals;
    if ((verb !== undefined && verb !== 'export') || extra.length)
      return usageError(NAME, 'the only subcommand is export: shardeck incident export --md', json);
    if (verb === 'export' && !values.md) return usageError(NAME, 'export writes Markdown: add --md (shardeck incident export --md)', json);
    if (verb !== 'export' && (values.md || values.out))
      return usageError(NAME, '--md and --out belong to export: shardeck incident export --md --out FILE', json);
    let sinceMs: number | undefined;
    if (values.since !== undefined) {
      const ms = parseSince(String(values.since));
      if (ms === null) return usageError(NAME, `--since "${String(values.since)}" is not a duration: give e.g. 30m, 2h or 1d`, json);
      sinceMs = Date.now() - ms;
    }
    const conf = openConfig();
    const profileName = pickProfileName(values.profile as string | undefined, conf);
    const profile = getProfile(profileName, conf);
    if (values.profile && !profile) throw new UsageError(`no profile named "${String(values.profile)}": see shardeck profiles`);
    const raw = (values.url as string | undefined) ?? profile?.url;
    if (!raw) return usageError(NAME, 'which cluster? give --url URL or --profile NAME (the timeline is kept per cluster)', json);
    const url = urlForMessage(raw);
    const entries = readTimeline(url, sinceMs);
    if (verb === 'export') {
      const md = timelineMarkdown(url, entries, new Date(), new Date().getTimezoneOffset());
      if (values.out) {
        // Where the operator says (their working folder may be shared): a new 0600 file, or one of their own.
        try {
          writeOperatorFileExclusive(String(values.out), displayBlock(md));
        } catch (e) {
          if (e instanceof OperatorFileRefused) return usageError(NAME, e.message, json);
          throw e;
        }
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, file: values.out, entries: entries.length });
        else err(`wrote ${countOf(entries.length, 'entry', 'entries')} to ${String(values.out)}\n`);
      } else out(md);
      return EXIT.ok;
    }
    if (json) printJson({ schema: JSON_SCHEMA, command: NAME, cluster: url, file: timelineFile(url), entries });
    else {
      if (!entries.length)
        out(`nothing recorded for ${url}${values.since ? ` in the last ${String(values.since)}` : ''} (${timelineFile(url)})\n`);
      for (const e of entries) out(`${e.time.replace('T', ' ').slice(0, 19)} UTC  ${entryText(e)}\n`);
    }
    return EXIT.ok;
  },
};

export default incident;
