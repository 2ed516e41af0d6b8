// Text commands print data inside lines they lay out themselves: the door (commands/output.ts)
// keeps line breaks and tabs as layout, so a name's own line break or tab must be escaped where
// the name is put into the line (issue 23). Each formatter here gets every hostile name (a line
// break, a tab, ESC, BEL, C1, a right-to-left override, zero-width characters) and must keep its
// line count and show the name as the console does (displayText).
import { describe, expect, it } from 'vitest';
import { fieldLine } from '../../src/commands/mappings';
import { displayText } from '../../src/domain/display-text';
import { catTable, namesText } from '../../src/domain/inspect';
import { previewLines, type Preview } from '../../src/domain/mutation/preview';
import { describeMatch } from '../../src/domain/mutation/targets';
import { templateLine } from '../../src/domain/templates';
import { entryText, type TimelineEntry } from '../../src/domain/timeline';
import type { IndexTemplate } from '../../src/domain/templates';
import { HOSTILE } from '../fixtures/hostile/names';

/** What a terminal would act on, or what would make a name look like another or break its line. */
// eslint-disable-next-line no-control-regex -- what must never reach a line raw: control characters on purpose
const RAW = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

const cases = HOSTILE.map((h) => [h.label, h.name] as const);

describe('a hostile name put into a line stays in that line, visibly escaped', () => {
  it.each(cases)('%s', (_, name) => {
    const shown = displayText(name);
    const one = (line: string, what: string) => {
      expect(line, what).not.toMatch(RAW);
      expect(line, what).toContain(shown);
    };
    const table = catTable([
      { index: name, health: 'green' },
      { index: 'plain', health: 'yellow' },
    ]);
    expect(table).toHaveLength(3);
    one(table[1], 'catTable');
    // Columns still line up: the escaped name is what is measured.
    expect(table[2].indexOf('yellow')).toBe(table[0].indexOf('health'));
    one(namesText([name, 'b']), 'namesText');
    one(describeMatch([name]), 'describeMatch');
    one(fieldLine({ name, type: 'keyword', depth: 0, multi: false, disabled: false, notes: [] } as never), 'fieldLine');
    one(templateLine({ name, patterns: [name], composedOf: [name], shards: 1, replicas: 0 } as unknown as IndexTemplate), 'templateLine');
    const preview = {
      summary: `set number_of_replicas of ${name} to 1`,
      method: 'PUT',
      path: `/${encodeURIComponent(name)}/_settings`,
      curl: 'curl ...',
    } as Preview;
    const lines = previewLines(preview);
    expect(lines).toHaveLength(3);
    one(lines[0], 'previewLines');
    const entries: TimelineEntry[] = [
      { kind: 'note', time: '2026-11-25T00:00:00Z', author: name, text: name },
      { kind: 'change', time: '2026-11-25T00:00:00Z', who: 'root', summary: `delete ${name}`, target: name, result: `failed: ${name}` },
      {
        kind: 'health',
        time: '2026-11-25T00:00:00Z',
        from: 'green',
        to: 'red',
        unassigned: 1,
        unassignedPrimaries: 1,
        shards: [`${name}[0] p UNASSIGNED`],
      },
    ];
    for (const e of entries) one(entryText(e), `entryText ${e.kind}`);
  });

  it('the plain name is left as it is', () => {
    expect(catTable([{ index: 'logs-2026.11' }])[1]).toBe('logs-2026.11');
    expect(displayText('logs-2026.11 é 漢字')).toBe('logs-2026.11 é 漢字');
  });

  it('zero-width characters are shown, so two names that look alike do not read alike', () => {
    expect(displayText('logs\u200b-1')).toBe('logs\\u200b-1');
    expect(displayText('a\ufeffb\u2060c\u200dd')).toBe('a\\ufeffb\\u2060c\\u200dd');
  });
});
