// shardeck hot-threads [NODE] [--json] [--threads N] [--interval 500ms] [--type cpu|wait|block]:
// the busiest threads of a node (of every node without NODE), sampled by the node over the
// interval (GET _nodes/<id>/hot_threads, plain text parsed): each thread's share of the interval,
// its pool and its top frames, at 80 columns. The Nodes pane's H shows the same for its row.
import { hotThreadLines, hotThreadsNode, parseHotThreadsOptions } from '../domain/nodes/hot-threads';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';

const NAME = 'hot-threads';

const hotThreads: CommandModule = {
  summary: "A node's busiest threads over a short sample (cpu, wait or block): share of the interval, pool, top frames.",
  usage: 'usage: shardeck hot-threads [NODE] [--json] [--threads N] [--interval 500ms] [--type cpu|wait|block] [connection flags]',
  options: { threads: { type: 'string' }, interval: { type: 'string' }, type: { type: 'string' }, frames: { type: 'string' } },
  group: 'inspect',
  flagHelp: {
    threads: 'how many of the busiest threads each node reports (default 3)',
    interval: 'how long the node samples, e.g. 500ms or 2s (default 500ms, at most 10s)',
    type: 'what is measured: cpu (default), wait or block',
    frames: 'top frames shown per thread (text output; default 6)',
  },
  examples: ['shardeck hot-threads', 'shardeck hot-threads node-1 --type wait --interval 1s', 'shardeck hot-threads node-1 --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length > 1) return usageError(NAME, 'give at most one node (its name or id): shardeck hot-threads node-1', json);
    const opts = parseHotThreadsOptions({
      threads: values.threads as string | undefined,
      interval: values.interval as string | undefined,
      type: values.type as string | undefined,
    });
    if (!opts.ok) return usageError(NAME, opts.error, json);
    const frames = values.frames === undefined ? 6 : Number(values.frames);
    if (!Number.isInteger(frames) || frames < 0 || frames > 60)
      return usageError(NAME, `--frames "${String(values.frames)}" is not a whole number from 0 to 60`, json);
    const { es, close } = await openGuard(values);
    try {
      let node: string | null = null;
      if (positionals[0] !== undefined) {
        const found = hotThreadsNode(await es.data('nodes'), positionals[0]);
        if (!found.ok) return usageError(NAME, found.error, json);
        node = found.id;
      }
      const nodes = await es.hotThreads(node, opts.value);
      if (json) {
        printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, ...opts.value, nodes });
        return EXIT.ok;
      }
      for (const l of hotThreadLines(nodes, 80, frames)) out(`${l.tone ? paint(l.tone, l.text.trimEnd()) : l.text.trimEnd()}\n`);
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default hotThreads;
