// Entry point: parse argv, pick the TUI or a subcommand from the command table (commands/table.ts).
import { parseArgs } from 'node:util';
import { UsageError } from './config/connection';
import { EXIT, GLOBAL_OPTIONS, type CommandContext } from './commands/common';
import { COMMANDS } from './commands/table';
import { applyV8Flags } from './config/runtime';

// Before anything big is allocated (config/runtime.ts says why).
applyV8Flags();

function globalUsage(): string {
  return [
    'usage: shardeck [command] [flags]',
    '',
    'commands (default: tui):',
    ...Object.keys(COMMANDS).map((c) => `  ${c}`),
    '',
    'connection flags: --url URL --user NAME (--password-env VAR | --password-file FILE) --ca FILE --insecure --profile NAME --read-only',
    'run `shardeck <command> --help` for a command',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === '--version' || first === '-V') {
    process.stdout.write(`shardeck ${process.env.SHARDECK_VERSION ?? '0.1.0'}\n`);
    return 0;
  }
  const name = first && !first.startsWith('-') ? first : 'tui';
  const rest = first && !first.startsWith('-') ? argv.slice(1) : argv;
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`shardeck: unknown command "${name}"\n\n${globalUsage()}\n`);
    return EXIT.usage;
  }
  const mod = await load();
  // parseArgs reads "-1" as an option; a negative number is a value (e.g. replicas set x -1),
  // and must reach the command so it can say what is wrong with it.
  const negatives = new Map<string, string>();
  const args = rest.map((a, i) => {
    if (!/^-\d+(\.\d+)?$/.test(a)) return a;
    const key = `\u0000neg${i}`;
    negatives.set(key, a);
    return key;
  });
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...mod.options }, allowPositionals: true, strict: true });
    parsed.positionals = parsed.positionals.map((p) => negatives.get(p) ?? p);
  } catch (e) {
    process.stderr.write(`shardeck ${name}: ${(e as Error).message.replace(/\. To specify.*$/s, '')}\n${mod.usage}\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    process.stdout.write(`${mod.summary}\n\n${mod.usage}\n`);
    return 0;
  }
  try {
    return await mod.run({ values: parsed.values as CommandContext['values'], positionals: parsed.positionals });
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`shardeck ${name}: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}

let settled = false;
main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (e) => {
    settled = true;
    process.stderr.write(`shardeck: ${(e as Error)?.message ?? e}\n`);
    process.exitCode = 70;
  },
);
// A command whose work was left hanging on a promise nothing will settle (seen: a client close
// after a failed TLS handshake) would otherwise end with exit 0, as if it had succeeded.
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  process.stderr.write('shardeck: the command ended without a result (internal error): treat its outcome as unknown\n');
  process.exitCode = 70;
});
