// Entry point: parse argv, pick the TUI or a subcommand from the command table (commands/index.ts).
import { UsageError } from './config/connection';
import { EXIT } from './commands/support/common';
import { parseCommandArgs } from './commands/support/argv';
import { COMMANDS } from './commands';
import { applyV8Flags } from './config/v8-flags';
import { err, flushJsonFailure, out, quietOnClosedPipe } from './commands/support/output';
import { didYouMean } from './domain/text/suggest';
import { displayText } from './domain/text/display-text';

// Before anything big is allocated (config/v8-flags.ts says why).
applyV8Flags();
quietOnClosedPipe();

// The bundle's build defines it from package.json (dev/build.mjs, dev/package.mjs).
const VERSION = process.env.SHARDECK_VERSION ?? '0.1.0';

/**
 * The console is drawn frame by frame on a terminal even when CI or CONTINUOUS_INTEGRATION is set
 * (a leftover in an operator's shell, or a test harness): Ink reads them once, when its chunk
 * loads, and would otherwise draw nothing until the console exits. Piped output keeps Ink's way.
 */
function drawEvenUnderCi(): void {
  if (!process.stdout.isTTY) return;
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
}

/** The one sentence of a failure the entry point itself reports (for --json: flushJsonFailure). */
let failure: string | undefined;

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === '--version' || first === '-V' || first === '-v') {
    out(`shardeck ${VERSION}\n`);
    return 0;
  }
  const name = first && !first.startsWith('-') ? first : 'tui';
  const rest = first && !first.startsWith('-') ? argv.slice(1) : argv;
  const load = COMMANDS[name];
  if (!load) {
    const near = didYouMean(name, [...Object.keys(COMMANDS), 'help']);
    failure = `unknown command "${name}"${near ? `: did you mean "${near}"?` : ''}`;
    // A suggestion and where the list is, not the whole list (issue 47): a typo should not scroll the screen away.
    err(`shardeck: ${failure}\nshardeck help lists the commands; shardeck help COMMAND explains one\n`);
    return EXIT.usage;
  }
  if (name === 'tui') drawEvenUnderCi();
  const mod = await load();
  const parsed = parseCommandArgs(mod, rest);
  if (!parsed.ok) {
    failure = parsed.error;
    err(`shardeck ${name}: ${failure}\n${mod.usage}\n`);
    return EXIT.usage;
  }
  if (parsed.ctx.values.help) {
    const help = await import('./commands/help');
    // `shardeck --help` (no command) is the overview; `shardeck COMMAND --help` the command's page.
    out(name === 'tui' && first !== 'tui' ? help.globalHelp(await help.loadTable(COMMANDS), VERSION) : help.commandHelp(name, mod));
    return 0;
  }
  try {
    return await mod.run(parsed.ctx);
  } catch (e) {
    if (e instanceof UsageError) {
      failure = e.message;
      err(`shardeck ${name}: ${displayText(e.message)}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}

let settled = false;
// --json anywhere asks for JSON, failures included (one object: ok:false, error, code).
const json = process.argv.slice(2).includes('--json');
main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    flushJsonFailure(code, json, failure);
    process.exitCode = code;
  },
  (e) => {
    settled = true;
    err(`shardeck: ${displayText(String((e as Error)?.message ?? e))}\n`);
    flushJsonFailure(EXIT.internal, json, `${(e as Error)?.message ?? e}`);
    process.exitCode = EXIT.internal;
  },
);
// A command whose work was left hanging on a promise nothing will settle (seen: a client close
// after a failed TLS handshake) would otherwise end with exit 0, as if it had succeeded.
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  err('shardeck: the command ended without a result (internal error): treat its outcome as unknown\n');
  process.exitCode = EXIT.internal;
});
