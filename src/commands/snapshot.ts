// shardeck snapshot repo add NAME --location PATH | repo verify NAME | repo remove NAME
// shardeck snapshot create REPO [--indices LIST] [--name NAME] [--wait]
// Guarded like every change (preview, confirmation, audit, read-back); the session is the one the
// console's snapshot wizard drives (services/wizards/snapshot.ts).
import { isConnectionFailure } from '../cluster/connection';
import { failureLines, progressLine, snapshotLine, snapshotOutcome } from '../domain/snapshots';
import { checkName, defaultSnapshotName, type SnapshotRequest, type SnapshotState } from '../domain/wizards/snapshot';
import { displayText } from '../domain/text/display-text';
import { snapshotSession } from '../services/wizards/snapshot';
import { EXIT, type CommandModule } from './support/common';
import {
  confirmOnTerminal,
  JSON_SCHEMA,
  MUTATION_OPTIONS,
  openGuard,
  previews,
  printJson,
  printPreviews,
  reportFailure,
  usageError,
  warnAudit,
  reviewOf,
} from './support/guarded';
import { paint } from './support/paint';
import { err, out } from './support/output';

const NAME = 'snapshot';

const USAGE =
  'shardeck snapshot repo add NAME --location PATH | repo verify NAME | repo remove NAME | create REPO [--indices LIST] [--name NAME] [--partial] [--wait]';

/** The request the arguments ask for, or the usage error (checked before connecting). */
function requestOf(positionals: string[], values: Record<string, unknown>, now: number): SnapshotRequest | string {
  const [verb, a, b, ...extra] = positionals;
  // The listing is its own command (issue 47): say where, not the whole usage.
  if (verb === 'list' || verb === 'ls')
    return 'the snapshots are listed by shardeck snapshots (this command changes: repo add|verify|remove, create)';
  if (verb === 'repo') {
    if (b === undefined || extra.length || !['add', 'verify', 'remove'].includes(a ?? ''))
      return `give what to do and the repository: ${USAGE}`;
    const bad = checkName('repository', b);
    if (bad) return bad;
    if (a === 'add') {
      const location = values.location;
      if (typeof location !== 'string' || !location) return 'give the folder of the repository: --location PATH (under path.repo)';
      return { kind: 'repo-add', name: b, location };
    }
    if (values.location !== undefined) return '--location belongs to repo add';
    return a === 'verify' ? { kind: 'repo-verify', name: b } : { kind: 'repo-remove', name: b };
  }
  if (verb === 'create') {
    if (a === undefined || b !== undefined)
      return `give the repository: shardeck snapshot create REPO [--indices LIST] [--name NAME] [--wait]`;
    const repoBad = checkName('repository', a);
    if (repoBad) return repoBad;
    const name = typeof values.name === 'string' ? values.name : defaultSnapshotName(now);
    const nameBad = checkName('snapshot', name);
    if (nameBad) return nameBad;
    const indices = typeof values.indices === 'string' ? values.indices : undefined;
    return {
      kind: 'create',
      repository: a,
      name,
      wait: Boolean(values.wait),
      partial: Boolean(values.partial),
      ...(indices !== undefined ? { indices } : {}),
    };
  }
  return USAGE;
}

const snapshot: CommandModule = {
  summary: 'Register, verify or remove an fs snapshot repository; take a snapshot of named indices and follow it to its end.',
  usage: `usage: ${USAGE} [--yes] [--dry-run] [--json]`,
  options: {
    ...MUTATION_OPTIONS,
    location: { type: 'string' },
    indices: { type: 'string' },
    name: { type: 'string' },
    wait: { type: 'boolean' },
    partial: { type: 'boolean' },
  },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
    location: "repo add: the repository's folder, under path.repo on every node (checked before sending)",
    indices: 'create: an index, a list or a pattern (resolved to the exact list in the preview; default: every open index but system ones)',
    name: "create: the snapshot's name (default: shardeck-<UTC date>-<time>)",
    partial: 'create: take what can be taken when a primary is unassigned (default: Elasticsearch refuses the whole snapshot)',
    wait: 'create: follow the snapshot to its end, its progress on stderr; exit 0 all shards ok, 1 partial, 5 failed (default: return once it started)',
  },
  examples: [
    'shardeck snapshot repo add backups --location /var/backups/es/backups',
    "shardeck snapshot create backups --indices 'service_v9_*' --wait",
    'shardeck snapshot repo verify backups --yes --json',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const req = requestOf(positionals, values, Date.now());
    if (typeof req === 'string') return usageError(NAME, req, json);
    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const session = snapshotSession(es, guard, req, { onAuditWarning: warnAudit });
      const review = await reviewOf(session, NAME, json);
      if (typeof review === 'number') return review;
      let state: SnapshotState = review;
      const { plan, facts } = review;
      const requests = previews(guard, [plan]);
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        action: req.kind,
        ...(req.kind === 'create' ? { repository: req.repository, name: req.name, indices: facts.indices } : { repository: req.name }),
      };
      if (!json) printPreviews(requests);
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else out('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const confirmation = await confirmOnTerminal(NAME, [plan], values);
      if (!confirmation) return EXIT.failed;
      // Progress of a followed snapshot on stderr, one line each time it moved.
      let last = '';
      let announced = false;
      const unsubscribe = session.subscribe(() => {
        const s = session.getState();
        if (s.phase !== 'following') return;
        if (!announced && !json) err('started; following it to its end...\n');
        announced = true;
        if (!s.progress) return;
        const line = progressLine(s.progress);
        if (line.text === last) return;
        last = line.text;
        err(`${paint(line.tone ?? '', displayText(line.text))}\n`);
      });
      session.send({ type: 'confirm', confirmation });
      state = await session.idle();
      unsubscribe();
      if (state.phase === 'failed') {
        if (isConnectionFailure(session.failure(state.message))) return reportFailure(NAME, session.failure(state.message), json);
        if (json) printJson({ ...head, ok: false, error: state.message, requests });
        err(`shardeck ${NAME}: ${displayText(state.message)}\n`);
        return EXIT.failed;
      }
      if (state.phase !== 'done') throw new Error(`stopped (${state.phase})`);
      const { result, snapshot: taken, nodes } = state;
      const okSent = result.ok && result.verified?.ok !== false;
      const outcome = taken ? (taken.state === 'IN_PROGRESS' ? 'running' : snapshotOutcome(taken)) : undefined;
      const code = !okSent
        ? EXIT.failed
        : outcome === undefined || outcome === 'ok'
          ? EXIT.ok
          : outcome === 'partial'
            ? EXIT.yellow
            : EXIT.failed;
      if (json) {
        printJson({
          ...head,
          ok: code === EXIT.ok,
          ...(code === EXIT.ok ? {} : { error: outcome ? `the snapshot ended ${taken?.state}` : result.message }),
          dryRun: false,
          sent: true,
          requests,
          result,
          ...(nodes ? { verifiedBy: nodes } : {}),
          ...(taken ? { outcome, snapshot: taken } : {}),
        });
        return code;
      }
      out(
        `${okSent ? 'ok' : 'FAILED'}: ${displayText(result.verified && result.message.startsWith('done') ? result.verified.message : result.message)}\n`,
      );
      if (nodes) out(`verified by ${nodes.length} node${nodes.length === 1 ? '' : 's'}: ${displayText(nodes.join(', '))}\n`);
      if (taken) {
        const line = snapshotLine(taken);
        out(`${paint(line.tone ?? '', displayText(line.text))}\n`);
        for (const f of failureLines(taken)) out(`  ${paint(f.tone ?? '', displayText(f.text))}\n`);
        if (outcome === 'partial')
          out(
            `${paint('yellow', 'partial:')} ${taken.shards.failed} of ${taken.shards.total} shards failed (above); the others are in the snapshot\n`,
          );
        if (outcome === 'failed') out(`${paint('red', 'failed:')} the snapshot holds no usable copy\n`);
        if (outcome === 'running') out('still running when shardeck stopped following it: see shardeck snapshots\n');
      } else if (req.kind === 'create' && okSent) out(`started; follow it with: shardeck snapshots ${displayText(req.repository)}\n`);
      return code;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default snapshot;
