// The console's command line runs the read commands of the command table in-process (issue 44
// item 1: `:cat allocation`, `:doctor`, `:nodes`): the same code as `shardeck cat allocation`,
// parsed the same way (support/argv.ts), on the console's connection (no password prompt, none in
// argv) and always read-only, so a command that would change something is refused by the Guard
// whatever it is. Its text goes to the console's view through the one output door (in-process.ts),
// never to the terminal Ink draws on. A change command is not run here: the line opens its wizard.
import { UsageError } from '../../config/connection';
import type { CommandGroup, CommandModule } from '../support/common';
import { EXIT } from '../support/common';
import { parseCommandArgs } from '../support/argv';
import { displayText } from '../../domain/text/display-text';
import { flushJsonFailure } from '../support/output';
import { runInProcess, type InProcessRun } from '../support/in-process';
import type { LineCommandTable } from '../../domain/console/command-line';
import { commandHelp, EXIT_HELP, loadTable, type CommandLoaders } from '../help';
import type { LineCommands } from '../../ui/app/context';
import { listProfiles } from '../../config/profiles';
import type { EsApi } from '../../cluster/api';

/** Groups whose commands only read (the cluster, or this config folder). */
const READ_GROUPS: readonly CommandGroup[] = ['watch', 'inspect'];
/** Reads that do not fit the console's line: it is the console, follows one, or reads every profile's cluster on its own connection (F does). */
const NOT_ON_THE_LINE = new Set(['tui', 'follow', 'fleet']);
/** Flags the line refuses: the console's own connection is used, a file is written, or something would be confirmed. */
const REFUSED_FLAGS: Record<string, string> = {
  url: "the console's connection is used",
  user: "the console's connection is used",
  ca: "the console's connection is used",
  insecure: "the console's connection is used",
  via: "the console's connection is used",
  profile: "the console's profile is used (F switches profile)",
  'cluster-name': 'nothing is confirmed from the line',
  yes: 'nothing is confirmed from the line',
  out: 'a file is written from a shell, not the console',
  'read-back': 'reading changes back is for a shell (shardeck audit --read-back)',
};
/** What a run may print into the view: a longer text is cut there, and says so. */
const MAX_TEXT = 2_000_000;

export function lineCommands(commands: CommandLoaders, connection: InProcessRun['connection'], es: EsApi): LineCommands {
  let loaded: { table: LineCommandTable; mods: Map<string, CommandModule> } | undefined;
  // Loaded when the line first opens (every command's module), not at the console's start.
  let loading: Promise<NonNullable<typeof loaded>> | undefined;
  const load = () =>
    (loading ??= loadTable(commands).then((all) => {
      const reads = all.filter(([n, m]) => (READ_GROUPS.includes(m.group) || n === 'help') && !NOT_ON_THE_LINE.has(n));
      loaded = {
        mods: new Map(all),
        table: {
          reads: Object.fromEntries(reads.map(([n, m]) => [n, Object.keys(m.options ?? {}).filter((f) => !REFUSED_FLAGS[f])])),
          changes: all.filter(([n, m]) => !READ_GROUPS.includes(m.group) && !NOT_ON_THE_LINE.has(n) && n !== 'help').map(([n]) => n),
        },
      };
      return loaded;
    }));
  return {
    table: () => loaded?.table,
    ready: () => load().then((l) => l.table),
    profiles,
    async names() {
      const [indices, nodes] = await Promise.all([es.cat('indices', undefined, ['index']), es.cat('nodes', undefined, ['name'])]);
      const column = (rows: Record<string, unknown>[] | null, c: string) => (rows ?? []).map((r) => String(r[c]));
      return { indices: column(indices, 'index'), nodes: column(nodes, 'name') };
    },
    async run(words) {
      const { code, text } = await runLine(words);
      return { code, text, meaning: EXIT_HELP.find(([c]) => c === code)?.[1] };
    },
  };

  async function runLine(words: readonly string[]): Promise<{ code: number; text: string }> {
    const { table, mods } = loaded ?? (await load());
    const [name, ...rest] = words;
    const mod = mods.get(name);
    let text = '';
    const write = (t: string) => {
      if (text.length < MAX_TEXT) text += t.length + text.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT - text.length)}\n(cut here)\n` : t;
    };
    if (!mod || !table.reads[name]) return { code: EXIT.usage, text: `"${displayText(name)}" is not a read command here` };
    const parsed = parseCommandArgs(mod, rest);
    if (!parsed.ok) return { code: EXIT.usage, text: `shardeck ${name}: ${displayText(parsed.error)}\n${mod.usage}\n` };
    const refused = Object.keys(parsed.ctx.values).find((f) => REFUSED_FLAGS[f]);
    if (refused) return { code: EXIT.usage, text: `--${refused} is not taken on the console's line: ${REFUSED_FLAGS[refused]}` };
    if (parsed.ctx.values.help) return { code: EXIT.ok, text: commandHelp(name, mod) };
    // Read-only whatever the profile says: a change is never sent from the line.
    const run: InProcessRun = { write, connection: { ...connection, conn: { ...connection.conn, readOnly: true } } };
    const json = parsed.ctx.values.json === true;
    const code = await runInProcess(run, async () => {
      let c: number;
      try {
        c = await mod.run(parsed.ctx);
      } catch (e) {
        c = e instanceof UsageError ? EXIT.usage : EXIT.internal;
        write(`shardeck ${name}: ${displayText((e as Error)?.message ?? String(e))}\n`);
      }
      flushJsonFailure(c, json);
      return c;
    });
    return { code, text };
  }
}

/** The saved profiles' names (Tab after `profile` or `--profile`); none when the config cannot be read. */
function profiles(): string[] {
  try {
    return listProfiles().map((p) => p.name);
  } catch {
    return [];
  }
}
