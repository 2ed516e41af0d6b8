// Copy over SSH (OSC 52) and the screen dump: the bytes, the choices and the lines the footer says.
import { describe, expect, it } from 'vitest';
import { clipboardWay, copiedText, copyRefusal, copyTargetOf, MAX_OSC52_BASE64, osc52Sequences } from '../../src/domain/console/clipboard';
import { dumpedText, plainScreen, screenFileName } from '../../src/domain/console/screen-dump';

describe('OSC 52', () => {
  it('carries the text base64-encoded; inside tmux also wrapped in its passthrough, every ESC doubled', () => {
    expect(osc52Sequences('logs-1', false)).toEqual(['\u001b]52;c;bG9ncy0x\u0007']);
    expect(osc52Sequences('logs-1', true)).toEqual(['\u001b]52;c;bG9ncy0x\u0007', '\u001bPtmux;\u001b\u001b]52;c;bG9ncy0x\u0007\u001b\\']);
    // A non-ASCII name is sent as its UTF-8 bytes.
    expect(osc52Sequences('índice', false)[0]).toBe(`\u001b]52;c;${Buffer.from('índice').toString('base64')}\u0007`);
  });

  it('goes to the file off a terminal, on TERM=dumb, when asked (SHARDECK_CLIPBOARD=file) or past what a terminal takes', () => {
    expect(clipboardWay({ tty: true, term: 'xterm-256color', text: 'x' })).toBe('osc52');
    expect(clipboardWay({ tty: false, text: 'x' })).toBe('file');
    expect(clipboardWay({ tty: true, term: 'dumb', text: 'x' })).toBe('file');
    expect(clipboardWay({ tty: true, setting: 'file', text: 'x' })).toBe('file');
    const fits = 'a'.repeat(Math.floor(((MAX_OSC52_BASE64 - 4) * 3) / 4));
    expect(clipboardWay({ tty: true, text: fits })).toBe('osc52');
    expect(clipboardWay({ tty: true, text: fits + 'aaaa' })).toBe('file');
  });

  it('refuses what would paste other than it shows (a line break runs a command), and nothing', () => {
    expect(copyRefusal('index name', 'logs-1')).toBeNull();
    expect(copyRefusal('index name', 'a\nrm -rf ~')).toMatch(/^not copied: the index name holds control characters \(a\\u000arm -rf ~\)/);
    expect(copyRefusal('index name', 'a\u202eb')).toMatch(/not copied/);
    expect(copyRefusal('index name', '')).toBe('nothing to copy: no index name on screen');
  });

  it('says what, how long and where, within 80 columns', () => {
    expect(copiedText('logs-1', 'osc52', { inTmux: false })).toBe('copied "logs-1" (6 chars) to the clipboard (OSC 52)');
    expect(copiedText('logs-1', 'file', { inTmux: false, file: '~/.config/shardeck/copied.txt' })).toBe(
      'copied "logs-1" (6 chars) to ~/.config/shardeck/copied.txt (no OSC 52)',
    );
    const long = `curl -X POST 'http://10.0.0.5:9200/${'x'.repeat(200)}'`;
    const line = copiedText(long, 'osc52', { inTmux: true });
    expect(line).toBe(`copied "curl -X POS…${'x'.repeat(10)}'" (${long.length} chars) to the clipboard (OSC 52, tmux)`);
    expect(line.length).toBeLessThanOrEqual(80);
  });

  it('y copies the highlighted row of the pane: its name, or a task id', () => {
    const sel = {
      indices: { index: 'logs-1' },
      shards: { index: 'logs-2', shard: 0, primary: true, node: 'n1' },
      nodes: { node: 'node-1' },
      tasks: { task: 'abc:12' },
    };
    expect(copyTargetOf('indices', sel)).toEqual({ what: 'index name', text: 'logs-1' });
    expect(copyTargetOf('shards', sel)).toEqual({ what: 'index name', text: 'logs-2' });
    expect(copyTargetOf('nodes', sel)).toEqual({ what: 'node name', text: 'node-1' });
    expect(copyTargetOf('tasks', sel)).toEqual({ what: 'task id', text: 'abc:12' });
    expect(copyTargetOf('snapshots', sel)).toBeUndefined();
    expect(copyTargetOf('disk', sel)).toBeUndefined();
  });
});

describe('screen dump', () => {
  it('keeps the text of a frame as Ink writes it: colours, cursor moves, erased lines and OSC taken out', () => {
    const frame =
      '\u001b[2K\u001b[1A\u001b[2K\u001b[G' +
      '\u001b[1;7m\u001b[31m[PROD]\u001b[39m\u001b[0m shardeck c1 \u001b[7m\u001b[32m GREEN \u001b[0m  \n' +
      'Indices\u001b]0;title\u0007   \n\n\n';
    expect(plainScreen(frame)).toBe('[PROD] shardeck c1  GREEN\nIndices\n');
  });

  it('names each file by its second, a second one in the same second numbered', () => {
    const t = new Date(2026, 10, 28, 9, 5, 7);
    expect(screenFileName(t)).toBe('screen-20261128-090507.txt');
    expect(screenFileName(t, 2)).toBe('screen-20261128-090507-2.txt');
    expect(dumpedText('~/.config/shardeck/screens/screen-20261128-090507.txt', 22)).toBe(
      'screen written to ~/.config/shardeck/screens/screen-20261128-090507.txt (22 lines)',
    );
  });
});

describe('the footer names a value copied from a JSON view or a setting by its path', () => {
  it('the path before the value, cut at its start past 24', () => {
    expect(copiedText('5s', 'osc52', { inTmux: false, label: 'index.refresh_interval' })).toBe(
      'copied index.refresh_interval "5s" (2 chars) to the clipboard (OSC 52)',
    );
    expect(copiedText('x', 'osc52', { inTmux: true, label: '_source.customer.address.city' })).toBe(
      'copied …e.customer.address.city "x" (1 chars) to the clipboard (OSC 52, tmux)',
    );
  });

  it("a block (lines of a JSON object, a command's text) may hold line breaks and tabs, no other control", () => {
    expect(copyRefusal('value', '{\n  "a": 1\n}', { block: true })).toBeNull();
    expect(copyRefusal('value', 'a\nb')).toMatch(/control characters/);
    expect(copyRefusal('value', 'a\u001b[2Jb', { block: true })).toMatch(/control characters/);
  });
});
