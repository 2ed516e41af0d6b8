// A command's words into its flags and positionals, the one way: the entry point (cli.tsx) and the
// console's command line (commands/tui/line-commands.ts) both parse with it, so a line typed in
// the console means what it means in a shell.
import { parseArgs } from 'node:util';
import { didYouMean } from '../../domain/text/suggest';
import { GLOBAL_OPTIONS, type CommandContext, type CommandModule } from './common';

export type ParsedArgs = { ok: true; ctx: CommandContext } | { ok: false; error: string };

export function parseCommandArgs(mod: CommandModule, rest: readonly string[]): ParsedArgs {
  // parseArgs reads "-1" as an option; a negative number is a value (e.g. replicas set x -1),
  // and must reach the command so it can say what is wrong with it. So is a task id whose node id
  // starts with '-' (node ids are random base64url: "-Xy3...:1234"), and an index uuid that does
  // (22 characters of base64url: "-xA9...", shardeck dangling import UUID), unless it is a flag.
  const options = { ...GLOBAL_OPTIONS, ...mod.options };
  const isUuid = (a: string) => /^-[\w-]{21}$/.test(a) && !(a.startsWith('--') && a.slice(2) in options);
  const negatives = new Map<string, string>();
  const args = rest.map((a, i) => {
    if (!/^-\d+(\.\d+)?$/.test(a) && !/^-[\w-]+:\d+$/.test(a) && !isUuid(a)) return a;
    const key = `\u0000neg${i}`;
    negatives.set(key, a);
    return key;
  });
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    const positionals = parsed.positionals.map((p) => negatives.get(p) ?? p);
    const values = parsed.values as CommandContext['values'];
    // A flag's value too (--from -3), so the command can say what is wrong with it.
    for (const [k, v] of Object.entries(values)) if (typeof v === 'string' && negatives.has(v)) values[k] = negatives.get(v);
    return { ok: true, ctx: { values, positionals } };
  } catch (e) {
    let error = (e as Error).message.replace(/\. To specify.*$/s, '');
    const unknown = /^Unknown option '(--?[^']+)'/.exec(error);
    const near =
      unknown &&
      didYouMean(
        unknown[1],
        Object.keys({ ...GLOBAL_OPTIONS, ...mod.options }).map((f) => `--${f}`),
      );
    if (near) error += `: did you mean ${near}?`;
    return { ok: false, error };
  }
}
