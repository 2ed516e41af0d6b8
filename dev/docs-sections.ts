// The generated sections of README.md and docs/, each from its one source: `npm run docs` writes
// them (dev/docs.ts) and test/unit/docs.test.ts fails when one drifted. A section sits between
// <!-- NAME:start --> and <!-- NAME:end --> in its file.
import { COMMANDS } from '../src/commands';
import { commandsMarkdown, exitCodesMarkdown, loadTable } from '../src/commands/help';
import { ruleTableMarkdown } from '../src/domain/doctor/rules';
import { hintWord } from '../src/keys/hints';
import { KEYMAP, SCOPE_TITLES, keyLabel, keymapMarkdown, type Scope } from '../src/keys/keymap';
import { readResults, table as versionsTable } from './versions.mjs';

export interface Section {
  /** Relative to the repository's root. */
  file: string;
  name: string;
  make: () => string | Promise<string>;
}

/** The README's keys on one screen: a line per scope, each key with its footer word; bold changes the cluster. */
export function keySummaryMarkdown(): string {
  const rows = (Object.keys(SCOPE_TITLES) as Scope[]).flatMap((scope) => {
    const keys = KEYMAP.filter((k) => k.scope === scope);
    if (!keys.length) return [];
    const words = keys.map((k) => {
      const label = k.keys.map((x) => '`' + keyLabel(x) + '`').join(' ');
      // The footer's word, its camelCase spelt as words ("sortReverse" -> "sort reverse").
      const word = hintWord(k).replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`);
      return `${k.dangerous ? `**${label}**` : label} ${word}`;
    });
    return [`| ${SCOPE_TITLES[scope].where} | ${words.join(', ')} |`];
  });
  return ['| where | keys |', '| --- | --- |', ...rows].join('\n');
}

export const SECTIONS: Section[] = [
  { file: 'README.md', name: 'keys', make: () => keySummaryMarkdown() },
  { file: 'docs/KEYS.md', name: 'keys', make: () => keymapMarkdown() },
  { file: 'docs/COMMANDS.md', name: 'exit-codes', make: () => exitCodesMarkdown() },
  { file: 'docs/COMMANDS.md', name: 'commands', make: async () => commandsMarkdown(await loadTable(COMMANDS)) },
  { file: 'docs/DOCTOR-RULES.md', name: 'rules', make: () => ruleTableMarkdown() },
  // Written by `npm run test:versions -- --docs` after a run; regenerated here from its results file.
  { file: 'docs/VERSIONS.md', name: 'versions', make: () => versionsTable(readResults()) },
];

const markers = (name: string) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`] as const;

/** The text between a section's markers, or undefined when the file lacks them. */
export function sectionOf(text: string, name: string): string | undefined {
  const [start, end] = markers(name);
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) return undefined;
  return text
    .slice(i + start.length, j)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

/** The text with the section's body replaced; throws when the markers are missing (a generated part must not vanish). */
export function withSection(text: string, name: string, body: string, file = 'the file'): string {
  const [start, end] = markers(name);
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${file} has no ${start} ... ${end} section`);
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
}
