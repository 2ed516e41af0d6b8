// shardeck nodes [--json]: every node's heap (used/max, -Xms against -Xmx), GC, fielddata, RAM, load,
// CPU and each data path's disk (seed: GET /_nodes/stats, /os, /fs, /jvm, /indices/fielddata).
import { nodeDetails, nodeLines, nodeVerdict } from '../domain/panes/nodes';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';
import { displayText } from '../domain/display-text';

const NAME = 'nodes';

const nodes: CommandModule = {
  summary: "Node statistics: heap (Xms vs Xmx), GC, fielddata, RAM, load, CPU, each data path's disk.",
  usage: 'usage: shardeck nodes [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck nodes', 'shardeck nodes --json | jq ".nodes[].heap"'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) return usageError(NAME, 'takes no arguments: shardeck nodes [--json]', json);
    const { es, close } = await openGuard(values);
    try {
      const [cat, search, settings, stats, jvm] = await Promise.all([
        es.data('nodes'),
        es.data('nodeSearch'),
        es.data('settings'),
        es.nodeStats(),
        es.nodeJvmArgs(),
      ]);
      const lines = nodeLines(cat, search, settings.maxOpenScrollContext, stats, jvm);
      if (json) {
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          nodes: lines.map((n) => ({
            id: n.id,
            name: n.name,
            ip: n.ip,
            version: n.version,
            roles: n.roles,
            master: n.master,
            heap: {
              usedBytes: n.heapUsedBytes,
              maxBytes: n.heapMaxBytes,
              xms: n.jvm?.xms ?? null,
              xmx: n.jvm?.xmx ?? null,
              xmsBytes: n.jvm?.xmsBytes ?? null,
              xmxBytes: n.jvm?.xmxBytes ?? null,
            },
            gc: n.stats?.gc ?? [],
            fielddata: n.stats ? { bytes: n.stats.fielddataBytes, evictions: n.stats.fielddataEvictions } : null,
            ram: { totalBytes: n.stats?.ramTotalBytes || n.ramTotalBytes, usedBytes: n.stats?.ramUsedBytes ?? null },
            cpuPercent: n.cpuPercent,
            load: n.stats ? { '1m': n.stats.load1m, '5m': n.stats.load5m, '15m': n.stats.load15m } : { '1m': n.load1m },
            dataPaths: n.stats?.dataPaths ?? [],
            scroll: { open: n.openContexts, limit: n.scrollContextLimit },
            verdict: nodeVerdict(n),
          })),
        });
        return EXIT.ok;
      }
      for (const n of lines) {
        out(
          paint('bold', `${n.master ? '*' : ''}${displayText(n.name)}`) +
            ` ${displayText(n.ip)} ${displayText(n.version)} ${displayText(n.roles)}\n`,
        );
        for (const l of nodeVerdict(n)) out(`  ${paint(l.tone, l.text)}\n`);
        for (const l of nodeDetails(n)) out(`  ${l.tone ? paint(l.tone, l.text) : l.text}\n`);
      }
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default nodes;
