// shardeck audit [--json] [--last N]: the audit log of mutations sent from this machine's config,
// one line per mutation (its "sending" record and its outcome joined); a mutation whose outcome was
// never recorded (the process died mid-request) shows "outcome unknown", and outcome null in --json.
import { formatAuditRecord } from '../domain/mutation/audit';
import { auditFile, readAudit } from '../services/audit';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, printJson, usageError } from './support/guarded';
import { err, out } from './support/output';

const audit: CommandModule = {
  summary: 'Every mutation shardeck sent (time, profile, request, outcome), from the audit log.',
  usage: 'usage: shardeck audit [--json] [--last N]',
  options: { last: { type: 'string' } },
  group: 'inspect',
  flagHelp: { last: 'show only the last N records (default: all)' },
  examples: ['shardeck audit --last 20', 'shardeck audit --json'],
  run({ values }) {
    const json = Boolean(values.json);
    const last = values.last === undefined ? Infinity : Number(values.last);
    if (!(last >= 1) || (last !== Infinity && !Number.isInteger(last)))
      return usageError('audit', `--last "${String(values.last)}" is not a whole number of records: give e.g. --last 20`, json);
    const { records, unreadable, tornLastLine } = readAudit();
    const shown = records.slice(last === Infinity ? 0 : -last);
    if (json)
      printJson({
        schema: JSON_SCHEMA,
        command: 'audit',
        file: auditFile(),
        unreadable,
        tornLastLine,
        records: shown.map((r) => ({ ...r, outcome: r.outcome ?? null })),
      });
    else {
      if (!records.length) out(`no mutation recorded yet (${auditFile()})\n`);
      for (const r of shown) out(formatAuditRecord(r) + '\n');
      if (unreadable)
        err(
          `shardeck audit: ${unreadable} line(s) of ${auditFile()} are not records and were skipped${tornLastLine ? ' (its last line is torn: a write cut short by a crash or a full disk; the next record starts on a line of its own)' : ''}\n`,
        );
    }
    return EXIT.ok;
  },
};

export default audit;
