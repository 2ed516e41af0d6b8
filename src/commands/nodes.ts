// shardeck nodes [--json]: every node's heap (used/max, -Xms against -Xmx), GC, fielddata, RAM, load,
// CPU and each data path's disk (seed: GET /_nodes/stats, /os, /fs, /jvm, /indices/fielddata).
import { cpuLoadText, nodeDetails, nodeLines, nodeVerdict, pressureLines } from '../domain/panes/nodes';
import { addSamples, nodeSamples, sparkLines, MAX_NODE_SAMPLES, type NodeSample } from '../domain/nodes/node-history';
import { oldGenPercent, type NodePressure } from '../domain/nodes/node-pressure';
import type { NodeFigures } from '../domain/nodes/node-stats';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';
import { displayText } from '../domain/text/display-text';
import { hotSpotLine, hotSpots } from '../domain/nodes/hot-spots';

const NAME = 'nodes';

const nodes: CommandModule = {
  summary: "Node statistics: heap (Xms vs Xmx), GC, fielddata, RAM, load, CPU, each data path's disk.",
  usage: 'usage: shardeck nodes [--json] | shardeck nodes --pressure [--samples N] [--interval S] [--json] [connection flags]',
  group: 'inspect',
  options: { pressure: { type: 'boolean' }, samples: { type: 'string' }, interval: { type: 'string' } },
  flagHelp: {
    pressure: 'thread pools, breakers, old-gen, GC, CPU (the Nodes pane P); with --samples, what changed and the history',
    samples: `with --pressure: read N times (1-${MAX_NODE_SAMPLES}, default 1); from the 2nd, rejections and rates since the previous`,
    interval: 'with --samples: seconds between reads (1-300, default 5)',
  },
  examples: ['shardeck nodes', 'shardeck nodes --json | jq ".nodes[].heap"', 'shardeck nodes --pressure --samples 3 --interval 5'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) return usageError(NAME, 'takes no arguments: shardeck nodes [--json]', json);
    if (!values.pressure && (values.samples !== undefined || values.interval !== undefined))
      return usageError(NAME, '--samples and --interval go with --pressure', json);
    const samples = values.samples === undefined ? 1 : Number(values.samples);
    const interval = values.interval === undefined ? 5 : Number(values.interval);
    if (!Number.isInteger(samples) || samples < 1 || samples > MAX_NODE_SAMPLES)
      return usageError(NAME, `--samples "${String(values.samples)}" is not a whole number from 1 to ${MAX_NODE_SAMPLES}`, json);
    if (!Number.isFinite(interval) || interval < 1 || interval > 300)
      return usageError(NAME, `--interval "${String(values.interval)}" is not a number of seconds from 1 to 300`, json);
    const { es, close } = await openGuard(values);
    try {
      if (values.pressure) return await pressure(es, samples, interval * 1000, json);
      const [list, figures, settings, jvm, allocation] = await Promise.all([
        es.data('nodes'),
        es.data('nodeStats'),
        es.data('settings'),
        es.nodeJvmArgs(),
        es.data('allocation'),
      ]);
      const lines = nodeLines(list, figures.search, settings.maxOpenScrollContext, figures.stats, jvm);
      const hot = hotSpots(allocation, figures.pressure);
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
          // Shards, indices on disk and write load per data node; `hot` names what is at 2x the average.
          hotSpots: hot,
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
      const hotLine = hotSpotLine(hot, 80);
      if (hotLine) out(`${hotLine.tone ? paint(hotLine.tone, hotLine.text.trimEnd()) : hotLine.text.trimEnd()}\n`);
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

type Es = Awaited<ReturnType<typeof openGuard>>['es'];

/** nodes --pressure: the statistics read (pressure and the statistics beside it) `samples` times, `intervalMs` apart. */
async function pressure(es: Es, samples: number, intervalMs: number, json: boolean): Promise<number> {
  let last: NodeFigures | undefined;
  let history: Record<string, NodeSample[]> = {};
  for (let i = 0; i < samples; i++) {
    // Not a synchronisation: the operator asked for reads this far apart.
    if (i) await new Promise((r) => setTimeout(r, intervalMs));
    last = (await es.resource('nodeStats', undefined, last)).data;
    history = addSamples(history, nodeSamples(last.pressure, last.stats, Date.now()));
  }
  const nodesNow = last?.pressure ?? [];
  const stats = last?.stats ?? [];
  const statsOf = (p: NodePressure) => stats.find((s) => s.id === p.id) ?? stats.find((s) => s.name === p.name);
  if (json) {
    printJson({
      schema: JSON_SCHEMA,
      command: NAME,
      ok: true,
      pressure: true,
      samples,
      intervalMs: samples > 1 ? intervalMs : null,
      nodes: nodesNow.map((p) => {
        const s = statsOf(p);
        return {
          id: p.id,
          name: p.name,
          pools: p.pools,
          breakers: p.breakers,
          oldGen: { usedBytes: p.oldUsedBytes, maxBytes: p.oldMaxBytes, percent: oldGenPercent(p) },
          gc: p.gc,
          cpuPercent: s?.cpuPercent ?? null,
          load: s ? { '1m': s.load1m, '5m': s.load5m, '15m': s.load15m } : null,
          searchPerSec: p.searchPerSec,
          indexPerSec: p.indexPerSec,
          sinceMs: p.intervalMs,
          samples: history[p.name] ?? [],
        };
      }),
    });
    return EXIT.ok;
  }
  for (const p of nodesNow) {
    out(`${paint('bold', displayText(p.name))} ${cpuLoadText(statsOf(p))}\n`);
    for (const l of pressureLines(p)) out(`  ${l.tone ? paint(l.tone, displayText(l.text)) : displayText(l.text)}\n`);
    if (samples > 1) for (const l of sparkLines(history[p.name] ?? [], 78)) out(`  ${l}\n`);
  }
  return EXIT.ok;
}

export default nodes;
