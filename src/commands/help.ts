// shardeck help [COMMAND] [--man]: the help text, the man page, the shell completions and the
// commands reference of docs/COMMANDS.md, all generated from the command table (commands/index.ts)
// and each command's summary, usage, flagHelp and examples, so none of them can drift from what
// the commands take. The man page's keys come from the keymap, as the help overlay's do. The table hands
// itself to helpCommand, so help never imports the table that loads it (no import cycle).
import { UsageError } from '../config/connection';
import { KEYMAP, SCOPE_TITLES, keyLabel, type Scope } from '../keys/keymap';
import { EXIT, GLOBAL_FLAG_HELP, GLOBAL_OPTIONS, GROUPS, type CommandContext, type CommandModule } from './support/common';
import { out, outWords } from './support/output';

export type Table = [name: string, mod: CommandModule][];

/** The command table of commands/index.ts: each command's name and its lazy loader. */
export type CommandLoaders = Record<string, () => Promise<CommandModule>>;

/** Every command of the table, loaded (help and completions need them all). */
export async function loadTable(commands: CommandLoaders): Promise<Table> {
  return Promise.all(Object.entries(commands).map(async ([name, load]) => [name, await load()] as [string, CommandModule]));
}

export const EXIT_HELP: [code: number, meaning: string][] = [
  [EXIT.ok, 'ok: green, found, done'],
  [EXIT.yellow, 'warning: yellow'],
  [EXIT.red, 'critical: red, or a corrupt primary found'],
  [EXIT.unreachable, 'the node or platform is unreachable or refused the credentials'],
  [EXIT.readOnly, 'read-only mode: the change was not sent'],
  [EXIT.failed, 'refused, declined, failed or not found; a `--snapshot-first` not taken whole (the change not sent)'],
  [EXIT.usage, 'bad input (a flag, a value, a file): nothing was sent'],
  [EXIT.internal, 'internal error: treat the outcome as unknown (shardeck audit shows what was sent)'],
];

/** The exit-code table of docs/COMMANDS.md (npm run docs writes it; test/unit/docs.test.ts keeps them equal). */
export function exitCodesMarkdown(): string {
  return ['| exit | meaning |', '| --- | --- |', ...EXIT_HELP.map(([c, m]) => `| ${c} | ${m} |`)].join('\n');
}

export const CONFIG_HELP = [
  'profiles, the audit log and stored refresh tokens live in $SHARDECK_CONFIG_DIR, else $XDG_CONFIG_HOME/shardeck,',
  'else ~/.config/shardeck (a private folder, 0700; secret files 0600). Passwords are never stored: --password-env or --password-file.',
];

/** `--flag VALUE` as usage shows it. */
function flagName(name: string, spec: { type: string; short?: string }): string {
  const value = spec.type === 'string' ? ` ${name === 'password-env' ? 'VAR' : 'VALUE'}` : '';
  return `${spec.short ? `-${spec.short}, ` : ''}--${name}${value}`;
}

/** Help is read at 80 columns: `label` then `text` wrapped under itself (a hanging indent). */
export function hanging(label: string, text: string, width = 80): string {
  if (label.trim() && !label.endsWith(' ')) label += ' ';
  const indent = Math.min(label.length, 40);
  const lines: string[] = [];
  let line = label.padEnd(indent);
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length > indent && line.length + 1 + word.length > width) {
      lines.push(line);
      line = ' '.repeat(indent) + word;
    } else line += (line.length > indent || label.length > indent ? ' ' : '') + word;
  }
  lines.push(line);
  return lines.map((l) => l.trimEnd()).join('\n');
}

function flagRows(options: CommandModule['options'], help: Record<string, string>): string[] {
  const entries = Object.entries(options ?? {});
  const width = Math.min(28, Math.max(0, ...entries.map(([n, s]) => flagName(n, s).length)));
  return entries.map(([n, s]) => hanging(`  ${flagName(n, s).padEnd(width)} `, help[n] ?? ''));
}

export function globalHelp(table: Table, version: string): string {
  const out = [
    `shardeck ${version}: a terminal console and CLI for Elasticsearch 8 storage nodes`,
    '',
    'usage: shardeck [COMMAND] [flags]   (no command: the live console)',
    '',
  ];
  const width = Math.max(...table.map(([n]) => n.length));
  for (const group of GROUPS) {
    const rows = table.filter(([, m]) => m.group === group.name);
    if (!rows.length) continue;
    out.push(`${group.title}:`);
    for (const [name, m] of rows) out.push(hanging(`  ${name.padEnd(width)} `, m.summary));
    out.push('');
  }
  out.push('global flags (every command):', ...flagRows(GLOBAL_OPTIONS, GLOBAL_FLAG_HELP), '');
  out.push('exit codes:', ...EXIT_HELP.map(([c, m]) => `  ${String(c).padStart(2)}  ${m}`), '');
  out.push('config:', hanging('  ', CONFIG_HELP.join(' ')), '');
  out.push(hanging('', 'shardeck help COMMAND (or shardeck COMMAND --help): its flags and examples; man shardeck: all of it.'));
  return out.join('\n') + '\n';
}

function firstSentence(s: string): string {
  return s.length <= 100 ? s : s.slice(0, 97).replace(/\s+\S*$/, '') + '...';
}

export function commandHelp(name: string, m: CommandModule): string {
  const out = [hanging('', `shardeck ${name}: ${m.summary}`), '', m.usage, ''];
  if (Object.keys(m.options ?? {}).length) out.push('flags:', ...flagRows(m.options, m.flagHelp), '');
  out.push('examples:', ...m.examples.map((e) => `  ${e}`), '');
  out.push(
    hanging(
      '',
      `global flags: ${Object.keys(GLOBAL_OPTIONS)
        .map((f) => `--${f}`)
        .join(' ')} (shardeck help)`,
    ),
  );
  return out.join('\n') + '\n';
}

// --- docs/COMMANDS.md (markdown) ---------------------------------------------------------------

/** A table cell: a pipe would end it, a line break would end the row. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function flagTable(options: CommandModule['options'], help: Record<string, string>): string[] {
  const entries = Object.entries(options ?? {});
  if (!entries.length) return [];
  return ['| flag | meaning |', '| --- | --- |', ...entries.map(([n, s]) => `| \`${flagName(n, s)}\` | ${cell(help[n] ?? '')} |`), ''];
}

/** The commands reference of docs/COMMANDS.md: the global flags, then each group's commands as help shows them. */
export function commandsMarkdown(table: Table): string {
  const out = ['### Global flags (every command)', '', ...flagTable(GLOBAL_OPTIONS, GLOBAL_FLAG_HELP)];
  for (const group of GROUPS) {
    const rows = table.filter(([, m]) => m.group === group.name);
    if (!rows.length) continue;
    out.push(`### ${group.title.replace(/^./, (c) => c.toUpperCase())}`, '');
    for (const [name, m] of rows) {
      out.push(`#### shardeck ${name}`, '', m.summary, '', '```text', m.usage, '```', '', ...flagTable(m.options, m.flagHelp));
      out.push('```sh', ...m.examples, '```', '');
    }
  }
  return out.join('\n').trimEnd();
}

// --- man page (roff) --------------------------------------------------------------------------

function roff(s: string): string {
  // A line starting with . or ' is a roff request; backslashes and dashes are escaped.
  return s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
}

export function manPage(table: Table, version: string, date = '2026'): string {
  const out = [
    `.TH SHARDECK 1 "${date}" "shardeck ${version}" "User Commands"`,
    '.SH NAME',
    'shardeck \\- terminal console and CLI for Elasticsearch 8 storage nodes',
    '.SH SYNOPSIS',
    '.B shardeck',
    '[\\fICOMMAND\\fR] [\\fIflags\\fR]',
    '.SH DESCRIPTION',
    roff(
      'Without a command, shardeck opens the live console (health, indices, shards, disk, nodes). Every change goes through one guarded path: a preview with the equivalent curl line, a confirmation proportional to the risk, an audit record, one send, a read-back. With stdout not a terminal it prints the status text instead.',
    ),
    '.SH GLOBAL FLAGS',
  ];
  for (const [n, s] of Object.entries(GLOBAL_OPTIONS)) out.push('.TP', `.B ${roff(flagName(n, s))}`, roff(GLOBAL_FLAG_HELP[n] ?? ''));
  for (const group of GROUPS) {
    const rows = table.filter(([, m]) => m.group === group.name);
    if (!rows.length) continue;
    out.push(`.SH ${group.title.toUpperCase()}`);
    for (const [name, m] of rows) {
      out.push('.SS', `.B shardeck ${roff(name)}`, roff(m.summary), '.PP', '.nf', roff(m.usage), '.fi');
      for (const [n, s] of Object.entries(m.options ?? {})) out.push('.TP', `.B ${roff(flagName(n, s))}`, roff(m.flagHelp[n] ?? ''));
      out.push('.PP', 'Examples:', '.nf', ...m.examples.map((e) => roff(`  ${e}`)), '.fi');
    }
  }
  out.push(...manKeys());
  out.push('.SH EXIT STATUS');
  for (const [c, m] of EXIT_HELP) out.push('.TP', `.B ${c}`, roff(m));
  out.push('.SH FILES', roff(CONFIG_HELP.join(' ')));
  out.push('.SH ENVIRONMENT', roff('SHARDECK_CONFIG_DIR (the config folder), NO_COLOR (no colour), TERM=dumb (no colour).'));
  return out.join('\n') + '\n';
}

/** The console's keys, scope by scope in the help overlay's order, from the keymap. */
function manKeys(): string[] {
  const out = ['.SH KEYS', roff('In the console; ? shows the same list. Keys marked (changes the cluster) are absent in read-only mode.')];
  for (const scope of Object.keys(SCOPE_TITLES) as Scope[]) {
    const rows = KEYMAP.filter((k) => k.scope === scope);
    if (!rows.length) continue;
    out.push(`.SS ${roff(SCOPE_TITLES[scope].help)}`);
    for (const k of rows)
      out.push('.TP', `.B ${roff(k.keys.map(keyLabel).join(' '))}`, roff(k.description + (k.dangerous ? ' (changes the cluster)' : '')));
  }
  return out;
}

// --- completions ------------------------------------------------------------------------------

function flagsOf(m: CommandModule): string[] {
  return [...Object.keys(GLOBAL_OPTIONS), ...Object.keys(m.options ?? {})].map((f) => `--${f}`);
}

/** Flags whose value is a profile name (completed from `shardeck help --complete profiles`). */
const PROFILE_FLAGS = ['--profile'];

export function bashCompletion(table: Table): string {
  const cases = table.map(([name, m]) => `    ${name}) flags="${flagsOf(m).join(' ')}" ;;`).join('\n');
  return `# bash completion for shardeck (generated by shardeck help --completion bash)
# Profile and index names are data someone else may choose (an index named x$(cmd)): they are
# never given to compgen -W (which expands them), only compared literally and offered quoted.
_shardeck_words() {
  local w q
  while IFS= read -r w; do
    [[ -n "$w" && "$w" == "$2"* ]] || continue
    printf -v q '%q' "$w"
    COMPREPLY+=("$q")
  done < <(shardeck help --complete "$1" 2>/dev/null)
}
_shardeck() {
  local cur prev cmd flags i
  COMPREPLY=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  case "$prev" in
    ${PROFILE_FLAGS.join('|')}) _shardeck_words profiles "$cur"; return ;;
  esac
  if [[ -z "$cmd" && "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W "${table.map(([n]) => n).join(' ')} help" -- "$cur")); return
  fi
  case "$cmd" in
${cases}
    *) flags="${Object.keys(GLOBAL_OPTIONS)
      .map((f) => `--${f}`)
      .join(' ')}" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    _shardeck_words indices "$cur"
  fi
}
complete -F _shardeck shardeck
`;
}

function zshDescribe(s: string): string {
  return firstSentence(s).replace(/[:'\\[\]]/g, ' ');
}

export function zshCompletion(table: Table): string {
  const commands = table.map(([n, m]) => `    '${n}:${zshDescribe(m.summary)}'`).join('\n');
  const cases = table
    .map(([name, m]) => {
      const help = { ...GLOBAL_FLAG_HELP, ...m.flagHelp };
      const specs = [...Object.keys(GLOBAL_OPTIONS), ...Object.keys(m.options ?? {})].map((f) => {
        const value = PROFILE_FLAGS.includes(`--${f}`)
          ? ':profile:_shardeck_profiles'
          : { ...GLOBAL_OPTIONS, ...m.options }[f].type === 'string'
            ? ':value:'
            : '';
        return `'--${f}[${zshDescribe(help[f] ?? '')}]${value}'`;
      });
      return `    ${name}) _arguments ${specs.join(' ')} '*:index:_shardeck_indices' ;;`;
    })
    .join('\n');
  return `#compdef shardeck
# zsh completion for shardeck (generated by shardeck help --completion zsh)
_shardeck_profiles() { local -a p; p=(\${(f)"$(shardeck help --complete profiles 2>/dev/null)"}); compadd -a p }
_shardeck_indices() { local -a i; i=(\${(f)"$(shardeck help --complete indices 2>/dev/null)"}); compadd -a i }
_shardeck() {
  local -a commands
  commands=(
${commands}
    'help:help on a command'
  )
  if (( CURRENT == 2 )); then _describe command commands; return; fi
  case $words[2] in
${cases}
  esac
}
_shardeck "$@"
`;
}

const help: Omit<CommandModule, 'run'> = {
  summary: 'Every command grouped, the global flags, exit codes and where config lives; or one command: its flags and examples.',
  usage: 'usage: shardeck help [COMMAND]   |   shardeck help --man   |   shardeck help --completion bash|zsh',
  group: 'config',
  options: { man: { type: 'boolean' }, completion: { type: 'string' }, complete: { type: 'string' } },
  flagHelp: {
    man: 'print the man page (roff), as the Debian package installs it',
    completion: 'print the completion script for bash or zsh',
    complete: 'print completion words: profiles (from the config) or indices (from the last poll); used by the scripts',
  },
  examples: [
    'shardeck help replicas',
    'shardeck help --completion bash > /etc/bash_completion.d/shardeck',
    'shardeck help --man | man -l -',
  ],
};

async function runHelp({ values, positionals }: CommandContext, commands: CommandLoaders): Promise<number> {
  const version = process.env.SHARDECK_VERSION ?? '0.1.0';
  if (values.complete !== undefined) {
    const { completionWords } = await import('../config/completion-cache');
    outWords(completionWords(String(values.complete)));
    return EXIT.ok;
  }
  const table = await loadTable(commands);
  if (values.man) out(manPage(table, version));
  else if (values.completion !== undefined) {
    if (values.completion === 'bash') out(bashCompletion(table));
    else if (values.completion === 'zsh') out(zshCompletion(table));
    else throw new UsageError(`no completion for "${String(values.completion)}": use --completion bash or --completion zsh`);
  } else if (positionals.length) {
    const [name] = positionals;
    const found = table.find(([n]) => n === name);
    if (!found || positionals.length > 1) throw new UsageError(`no command named "${positionals.join(' ')}": shardeck help lists them`);
    out(commandHelp(name, found[1]));
  } else out(globalHelp(table, version));
  return EXIT.ok;
}

/** The help command over the given table (the table passes itself: help never imports it back). */
export function helpCommand(commands: CommandLoaders): CommandModule {
  return { ...help, run: (ctx) => runHelp(ctx, commands) };
}
