// shardeck snapshots [REPO] [--json]: the snapshot repositories, each one's snapshots newest first
// (state, indices, shards ok/failed, size of the newest, start, duration, failures with their
// reasons), the snapshots running now, and the SLM policies (or that the node has none).
import { failureLines, progressLine, repositoryLine, slmLine, snapshotLine, type SnapshotInfo } from '../domain/snapshots';
import { displayText } from '../domain/text/display-text';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { err, out } from './support/output';

const NAME = 'snapshots';

const snapshots: CommandModule = {
  summary: 'Snapshot repositories and their snapshots newest first (state, shards ok/failed, failures), running ones, SLM policies.',
  usage: 'usage: shardeck snapshots [REPOSITORY] [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck snapshots', 'shardeck snapshots nightly', 'shardeck snapshots --json | jq ".repositories[].snapshots[0]"'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length > 1) return usageError(NAME, 'give at most one repository: shardeck snapshots [REPOSITORY]', json);
    const only = positionals[0];
    const { es, close } = await openGuard(values);
    try {
      const all = await es.repositories();
      const repos = only === undefined ? all : all.filter((r) => r.name === only);
      if (only !== undefined && !repos.length) {
        const message = `no snapshot repository named ${only}${all.length ? ` (there are: ${all.map((r) => r.name).join(', ')})` : ' (none is registered)'}`;
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: message });
        err(`shardeck ${NAME}: ${displayText(message)}\n`);
        return EXIT.failed;
      }
      const [lists, running, slm] = await Promise.all([
        Promise.all(repos.map((r) => es.snapshots(r.name))),
        es.runningSnapshots(),
        es.slmPolicies(),
      ]);
      // The size of a snapshot (every file it references) is in its _status, which reads the repository: only the newest finished one's.
      const sizes = await Promise.all(
        lists.map(async (list) => {
          const newest = list.find((s) => s.state !== 'IN_PROGRESS');
          return newest ? { name: newest.name, bytes: (await es.snapshotStatus(newest.repository, newest.name))?.totalBytes } : undefined;
        }),
      );
      const sizeOf = (i: number, s: SnapshotInfo) => (sizes[i]?.name === s.name ? sizes[i]?.bytes : undefined);
      if (json) {
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          repositories: repos.map((r, i) => ({
            ...r,
            snapshots: lists[i].map((s) => ({ ...s, sizeBytes: sizeOf(i, s) ?? null })),
          })),
          running,
          slm,
        });
        return EXIT.ok;
      }
      if (!repos.length) out('no snapshot repository is registered: shardeck snapshot repo add NAME --location PATH\n');
      repos.forEach((r, i) => {
        out(`${paint('bold', displayText(repositoryLine(r)))}: ${lists[i].length} snapshot${lists[i].length === 1 ? '' : 's'}\n`);
        for (const s of lists[i]) {
          const line = snapshotLine(s, sizeOf(i, s));
          out(`  ${paint(line.tone ?? '', displayText(line.text))}\n`);
          for (const f of failureLines(s)) out(`    ${paint(f.tone ?? '', displayText(f.text))}\n`);
        }
      });
      for (const p of running) {
        const line = progressLine(p);
        out(`running: ${displayText(p.repository)}/${paint(line.tone ?? '', displayText(line.text))}\n`);
      }
      const s = slmLine(slm);
      out(`${paint(s.tone ?? '', displayText(s.text))}\n`);
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default snapshots;
