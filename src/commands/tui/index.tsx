// The live console (the default command): polls the node outside React and renders the panes.
// The terminal is always given back: on q, on Ctrl-C, on SIGTERM/SIGHUP and on a crash. One
// console is console.ts (its stop list); sharing is share.ts, the Fleet view fleet.ts.
import { UsageError } from '../../config/connection';
import { EXIT, type CommandModule, type CommandContext } from '../support/common';
import { err } from '../support/output';
import { runConsole } from './console';
import type { CommandLoaders } from '../help';

export const MIN_INTERVAL_S = 1;

export function parseInterval(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const s = Number(raw);
  if (!Number.isFinite(s) || s < MIN_INTERVAL_S) {
    throw new UsageError(`--interval "${raw}" is not a number of seconds: give ${MIN_INTERVAL_S} or more, e.g. --interval 5`);
  }
  return Math.round(s * 1000);
}

/** The console; `commands` is the command table, which its command line runs reads from (passed in: no import cycle). */
export function consoleCommand(commands: CommandLoaders): CommandModule {
  return { ...tui, run: (ctx) => runTui(ctx, commands) };
}

async function runTui({ values }: CommandContext, commands: CommandLoaders): Promise<number> {
  const intervalMs = parseInterval(values.interval as string | undefined);
  if (!process.stdout.isTTY || process.env.TERM === 'dumb') {
    // A pipe, cron, or a terminal that cannot move the cursor: the status text (and its exit code) is what it can use.
    err(
      `shardeck: the console needs a terminal${process.stdout.isTTY ? ' that can move the cursor (TERM is dumb)' : ''}; printing \`shardeck status\` instead (use it with --json in scripts)\n`,
    );
    const { default: status } = await import('../status');
    return status.run({ values, positionals: [] });
  }
  if (!process.stdin.isTTY) {
    err('shardeck: the console needs a terminal to read keys from; for scripts and checks use `shardeck status` (with --json)\n');
    return EXIT.usage;
  }
  // Enter in the Fleet view leaves this console for another profile's: the same process opens
  // that profile's connection (its own password source, never the one of the profile before).
  let next: CommandContext['values'] | number | undefined = values;
  while (next && typeof next === 'object') next = await runConsole(next, intervalMs, commands);
  return typeof next === 'number' ? next : EXIT.ok;
}

const tui: CommandModule = {
  summary: 'the live console: health, indices, shards, disk and nodes of the storage node, refreshed every few seconds',
  usage:
    'usage: shardeck [tui] [--url URL] [--user NAME --password-env VAR|--password-file F] [--ca FILE] [--insecure] [--profile NAME] [--read-only] [--interval SECONDS] [--share [--share-group GROUP]] [--require-approval]',
  options: {
    interval: { type: 'string' },
    share: { type: 'boolean' },
    'share-group': { type: 'string' },
    'require-approval': { type: 'boolean' },
  },
  group: 'watch',
  flagHelp: {
    interval: "seconds between polls (default: the profile's, else 5; 1 or more)",
    share: 'share this console from the start on a Unix socket (0600; s toggles it in the console); followers run shardeck follow',
    'share-group': 'let this group follow too (socket 0660, folder 0710); default: only your own user',
    'require-approval': "four eyes: every change waits for a follower to approve the same preview (or the profile's requireApproval)",
  },
  examples: ['shardeck', 'shardeck --profile prod --read-only', 'shardeck --share --share-group elasticsearch --require-approval'],
  // Without the table (a test mounting it alone): the console without reads on its line.
  run: (ctx) => runTui(ctx, {}),
};

export default tui;
