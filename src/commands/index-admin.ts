// shardeck index close|open|delete PATTERN [--expect N] [--confirm-project NAME]... [--yes]
// [--dry-run] [--json]: the pattern resolved to names before the preview; the request names exactly
// those indices. Hidden and system indices and the write index of an alias are refused; delete
// needs the count and each project index's name typed, even with --yes.
import { displayText } from '../domain/text/display-text';
import { indexFactParts, typedAheadText, type IndexAction, type IndexFacts } from '../domain/maintenance/index-admin';
import { checkIndexExpression } from '../domain/mutation/targets';
import { previewIndexAction } from '../services/index-admin';
import { oneChange } from '../services/one-change';
import { EXIT, type CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { err, out } from './support/output';
import {
  prepareSnapshotFirst,
  SNAPSHOT_FIRST_HELP,
  SNAPSHOT_FIRST_OPTIONS,
  snapshotFirstAsked,
  takeSnapshotFirst,
  type SnapshotFirstReport,
  type SnapshotFirstRun,
} from './support/snapshot-first';
import { paint } from './support/paint';

const NAME = 'index';
const ACTIONS: IndexAction[] = ['close', 'open', 'delete'];

function factLine(f: IndexFacts): string {
  const parts = indexFactParts(f).map((p) => (p.warn ? paint('yellow', p.text) : p.text));
  return `  ${paint('bold', displayText(f.index))}  ${parts.join(', ')}\n`;
}

const indexAdmin: CommandModule = {
  summary: 'Close, open or delete whole indices: the pattern resolved to names first, refusing system indices and write indices.',
  usage:
    'usage: shardeck index close|open|delete PATTERN [--expect N] [--confirm-project NAME]... [--snapshot-first] [--snapshot-repo REPO] [--yes] [--dry-run] [--json] [connection flags]',
  options: {
    ...MUTATION_OPTIONS,
    ...SNAPSHOT_FIRST_OPTIONS,
    expect: { type: 'string' },
    'confirm-project': { type: 'string', multiple: true },
  },
  group: 'change',
  flagHelp: {
    expect: 'delete: the number of indices the preview lists, typed ahead (required with --yes; --yes alone never deletes)',
    'confirm-project': "delete: a project index's name, typed ahead; once for each project index the preview lists (required with --yes)",
    yes: 'confirm without asking (delete still needs --expect and --confirm-project)',
    'dry-run': 'show the preview and send nothing',
    ...SNAPSHOT_FIRST_HELP,
  },
  examples: [
    "shardeck index close 'service_v9_old*' --dry-run",
    'shardeck index open service_v9_abc',
    "shardeck index delete 'logs-2025*' --expect 3 --yes",
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [action, pattern, ...extra] = positionals;
    if (!ACTIONS.includes(action as IndexAction) || pattern === undefined || extra.length)
      return usageError(NAME, "give the action and the index or pattern: shardeck index close 'service_v9_old*'", json);
    const verb = action as IndexAction;
    // Bad input never reaches the cluster: `*`, `_all`, exclusions and dot names refused here first.
    const syntax = checkIndexExpression(pattern);
    if (syntax) return usageError(NAME, syntax, json);
    const expect = values.expect === undefined ? undefined : String(values.expect);
    const projects = ((values['confirm-project'] as string[] | undefined) ?? []).map(String);
    const snapshotRepo = snapshotFirstAsked(values);
    if (verb !== 'delete' && (expect !== undefined || projects.length || snapshotRepo !== undefined))
      return usageError(NAME, '--expect, --confirm-project and --snapshot-first are for delete only', json);
    if (verb === 'delete' && values.yes && !values['dry-run'] && expect === undefined)
      return usageError(NAME, 'delete with --yes needs --expect N: the number of indices the preview lists (see it with --dry-run)', json);
    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const p = await previewIndexAction(es, guard, verb, pattern);
      if (!p.ok) return usageError(NAME, p.error, json);
      const head: Record<string, unknown> = {
        schema: JSON_SCHEMA,
        command: NAME,
        action: verb,
        pattern,
        indices: p.facts,
        already: p.already,
      };
      if (!json) {
        out(`"${displayText(pattern)}" matches ${p.facts.length} ${p.facts.length === 1 ? 'index' : 'indices'}:\n`);
        for (const f of p.facts) out(factLine(f));
        if (!p.snapshotsRead) out(paint('yellow', 'the snapshots could not be read: which hold these indices is not known\n'));
      }
      if (!p.plan) {
        if (json) printJson({ ...head, ok: true, sent: false });
        else out(`nothing to ${verb}: ${p.already.map(displayText).join(', ')} already ${verb === 'close' ? 'closed' : 'open'}\n`);
        return EXIT.ok;
      }
      if (!json && p.already.length)
        out(`already ${verb === 'close' ? 'closed' : 'open'}, left out: ${p.already.map(displayText).join(', ')}\n`);
      if (verb === 'delete') {
        const unsaved = p.facts.filter((f) => !f.newestSnapshot).map((f) => f.index);
        if (!json && unsaved.length)
          out(
            `${paint('yellow', 'no snapshot holds')} ${unsaved.map(displayText).join(', ')}: take one first (add --snapshot-first, or shardeck snapshot create REPO --indices ${displayText(unsaved.join(','))} --wait)\n`,
          );
        if (expect !== undefined && expect.trim() !== String(p.facts.length))
          return usageError(
            NAME,
            `"${pattern}" matches ${p.facts.length} indices, not ${expect}: look at the preview (nothing was sent)`,
            json,
          );
        const named = p.facts.filter((f) => f.project !== null).map((f) => f.index);
        if (values.yes && named.some((n) => !projects.includes(n)) && !json)
          err(
            `shardeck index: project indices are deleted only with each name typed: ${named.map((n) => `--confirm-project ${displayText(n)}`).join(' ')}\n`,
          );
      }
      // --snapshot-first: a snapshot of exactly the previewed indices, previewed before the delete,
      // taken whole after the confirmation, or the delete is not sent.
      let first: SnapshotFirstRun | undefined;
      if (snapshotRepo !== undefined) {
        const prepared = await prepareSnapshotFirst(
          es,
          guard,
          'delete',
          p.facts.map((f) => f.index),
          snapshotRepo,
        );
        if ('error' in prepared) return usageError(NAME, `${prepared.error}; nothing was sent`, json);
        first = prepared;
      }
      const session = oneChange(guard, [p.plan], {
        typedAhead: verb === 'delete' ? typedAheadText(expect, projects) : undefined,
        async before(confirmation) {
          if (!first) return;
          // In the --json answer too: which snapshot holds what the delete removes (or why none does).
          const taken: SnapshotFirstReport = await takeSnapshotFirst(first, confirmation, json);
          head.snapshotFirst = taken;
          if (!taken.taken) throw new Error(`no whole snapshot first (${displayText(taken.lines[0])})`);
          if (!json) out(`${paint('green', displayText(taken.line))}\n`);
        },
      });
      return await applyOnePlan(NAME, session, first ? [first.plan, p.plan] : p.plan, guard, values, head);
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default indexAdmin;
