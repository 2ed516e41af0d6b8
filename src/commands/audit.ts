// shardeck audit [--json] [--last N] [--read-back]: the audit log of mutations sent from this
// machine's config, one line per mutation (its "sending" record and its outcome joined); a mutation
// whose outcome was never recorded (the process died mid-request) shows "outcome unknown", and
// outcome null in --json. Those whose shardeck is gone are unfinished: listed after the records
// (`unfinished` in --json); --read-back reads the connection's cluster back for each and records
// the outcome (Guard.settleUnfinished, the same as the next change command), never resending.
import { formatAuditRecord, type AuditRecord } from '../domain/mutation/audit';
import { displayText } from '../domain/text/display-text';
import { auditFile, readAudit, unfinishedInLog } from '../services/audit';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { err, out } from './support/output';

/** The read-back of this connection's unfinished changes: one line each, on stdout. */
async function readBack(values: Parameters<CommandModule['run']>[0]['values'], json: boolean): Promise<number> {
  const { guard, close } = await openGuard(values, { allocationCheck: false, settle: false });
  try {
    const lines = await guard.settleUnfinished();
    if (json) printJson({ schema: JSON_SCHEMA, command: 'audit', ok: true, readBack: lines });
    else {
      if (!lines.length) out('no unfinished change to this cluster: nothing to read back\n');
      for (const l of lines) out(`read back: ${displayText(l)}\n`);
    }
    return EXIT.ok;
  } catch (e) {
    return reportFailure('audit', e, json);
  } finally {
    await close();
  }
}

/** What the listing says after the records when changes are left unfinished. */
function unfinishedNote(unfinished: AuditRecord[]): string {
  const urls = [...new Set(unfinished.map((r) => r.url))];
  return `${unfinished.length} change(s) above were sent by a shardeck that stopped before their answer (killed, a dropped SSH session): read them back (nothing is resent) with ${urls.map((u) => `shardeck audit --read-back --url ${u}`).join(', ')} (or --profile NAME)`;
}

const audit: CommandModule = {
  summary: 'Every mutation shardeck sent (time, profile, request, outcome), from the audit log.',
  usage: 'usage: shardeck audit [--json] [--last N] [--read-back [connection flags]]',
  options: { last: { type: 'string' }, 'read-back': { type: 'boolean' } },
  group: 'inspect',
  flagHelp: {
    last: 'show only the last N records (default: all)',
    'read-back':
      'read the cluster back for each change to it left unfinished (shardeck killed before the answer) and record the outcome; nothing is resent',
  },
  examples: ['shardeck audit --last 20', 'shardeck audit --json', 'shardeck audit --read-back --profile prod'],
  run({ values }) {
    const json = Boolean(values.json);
    if (values['read-back']) return readBack(values, json);
    const last = values.last === undefined ? Infinity : Number(values.last);
    if (!(last >= 1) || (last !== Infinity && !Number.isInteger(last)))
      return usageError('audit', `--last "${String(values.last)}" is not a whole number of records: give e.g. --last 20`, json);
    const { records, unreadable, tornLastLine } = readAudit();
    const shown = records.slice(last === Infinity ? 0 : -last);
    const unfinished = unfinishedInLog(shown);
    if (json)
      printJson({
        schema: JSON_SCHEMA,
        command: 'audit',
        file: auditFile(),
        unreadable,
        tornLastLine,
        records: shown.map((r) => ({ ...r, outcome: r.outcome ?? null })),
        unfinished: unfinished.map((r) => ({ id: r.id, url: r.url })),
      });
    else {
      if (!records.length) out(`no mutation recorded yet (${auditFile()})\n`);
      for (const r of shown) out(formatAuditRecord(r) + '\n');
      if (unfinished.length) out(displayText(unfinishedNote(unfinished)) + '\n');
      if (unreadable)
        err(
          `shardeck audit: ${unreadable} line(s) of ${auditFile()} are not records and were skipped${tornLastLine ? ' (its last line is torn: a write cut short by a crash or a full disk; the next record starts on a line of its own)' : ''}\n`,
        );
    }
    return EXIT.ok;
  },
};

export default audit;
