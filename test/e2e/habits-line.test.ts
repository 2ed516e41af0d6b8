// Issue 44, the command line's second half, in a real terminal (tmux at 80x23) against the
// secured shared node (TLS, the elastic user's password from a 0600 file): a read command of the
// command table run in-process into a view that scrolls, searches and copies (hostile names
// inert, the exit code shown), Tab completing flags, names and profiles.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until';
import { shardeckCommand, Terminals } from '../helpers/tmux';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedSecureNode, type SharedNode } from '../helpers/shared-node';

const INDEX = `service_v9_line${process.pid}`;
/** A name someone else chose (test/fixtures/hostile): an OSC that would set the terminal's title. */
const HOSTILE = 'osc\u001b]0;pwned\u0007';

const term = new Terminals('shardeck-line');
const { tmux, screen, waitFor, keys } = term;
let node: SharedNode;
let dir: string;
let cfg: string;
let passwordFile: string;

function launch(session: string, args: string, size: [number, number] = [80, 23]): void {
  term.start(session, shardeckCommand(args, `SHARDECK_CONFIG_DIR=${cfg}`), size);
}

/** The command line's row: the one above the status bar. */
const lineRow = (s: string) => s.trimEnd().split('\n').slice(-2)[0];

beforeAll(async () => {
  ensureBuilt();
  node = await sharedSecureNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-line-'));
  cfg = path.join(dir, 'conf');
  passwordFile = path.join(dir, 'es.password');
  fs.writeFileSync(passwordFile, `${node.password}\n`, { mode: 0o600 });
  const es = new Client({
    node: node.url,
    auth: { username: node.user!, password: node.password! },
    tls: { ca: fs.readFileSync(node.ca!, 'utf8') },
  });
  for (const index of [INDEX, HOSTILE]) await es.indices.create({ index, settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await es.index({ index: INDEX, id: 'd1', document: { user: { name: 'alice', city: 'Lyon' } }, refresh: true });
  await es.close();
  for (const args of [
    [
      'profiles',
      'save',
      'sec',
      '--url',
      node.url,
      '--user',
      node.user!,
      '--password-file',
      passwordFile,
      '--ca',
      node.ca!,
      '--label',
      'SEC',
    ],
    [
      'profiles',
      'save',
      'secro',
      '--url',
      node.url,
      '--user',
      node.user!,
      '--password-file',
      passwordFile,
      '--ca',
      node.ca!,
      '--read-only',
    ],
  ]) {
    const r = await runCli(args, { env: { SHARDECK_CONFIG_DIR: cfg } });
    expect(r.code, r.stderr).toBe(0);
  }
  tmux('new-session', '-d', '-s', 'keep', 'sleep 600');
  tmux('set', '-g', 'set-clipboard', 'on');
});

afterAll(() => {
  term.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a read command on the line (:cat allocation)', () => {
  it("runs in-process on the console's connection: its text in a view that scrolls, searches and copies, hostile names inert, the exit code shown", async () => {
    launch('out', '--profile sec --interval 1');
    await waitFor('out', (s) => s.startsWith('[SEC] shardeck ') && s.includes('GREEN'), 'the console on the secured node', 30_000);
    // The console's connection holds the password it read at start: with the file gone, a command
    // that resolved its own connection (or a shardeck started by the console) could not sign in.
    fs.renameSync(passwordFile, `${passwordFile}.away`);
    try {
      keys('out', ':');
      keys('out', '-l', 'cat allocation');
      keys('out', 'Enter');
      const s = await waitFor('out', (x) => x.includes('exit 0: ok'), 'the text of cat allocation and its exit code');
      expect(s).toContain(':cat allocation');
      expect(s).toMatch(/^shards +shards\.undesired +write_load\.forecast|^shards +disk\.indices/m);
      expect(s).toContain(node.name);
      for (const l of s.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
      keys('out', 'Escape');
      await waitFor('out', (x) => !x.includes(':cat allocation') && x.includes('q quit'), 'back on the pane');

      // A longer text: it scrolls; / finds a line; y copies it; the hostile name is shown escaped, never obeyed.
      keys('out', ':');
      keys('out', '-l', 'cat indices --columns index,health');
      keys('out', 'Enter');
      const idx = await waitFor('out', (x) => x.includes('exit 0: ok'), 'cat indices');
      expect(idx).toContain('osc\\u001b]0;pwned\\u0007');
      expect(tmux('display-message', '-p', '-t', 'out', '#{pane_title}')).not.toContain('pwned');
      keys('out', '/');
      keys('out', '-l', `line${process.pid}`);
      keys('out', 'Enter');
      const found = await waitFor('out', (x) => !x.includes('Enter finds'), 'the search done');
      expect(found).toContain(INDEX);
      tmux('set-buffer', 'not yet');
      keys('out', 'y');
      await waitFor('out', (x) => x.includes('copied "'), 'the copy said');
      expect(tmux('show-buffer')).toMatch(new RegExp(`^${INDEX} +green$`));
      keys('out', 'Escape');
      await waitFor('out', (x) => !x.includes(':cat indices'), 'back on the pane');

      // A command that fails says how, with its exit code, and the console stays.
      keys('out', ':');
      keys('out', '-l', 'cat nosuch');
      keys('out', 'Enter');
      const bad = await waitFor('out', (x) => x.includes('exit 64: bad input'), 'the usage error');
      expect(bad).toContain('the node has no _cat command "nosuch"');
      keys('out', 'Escape');
      await waitFor('out', (x) => !x.includes(':cat nosuch'), 'back on the pane');

      // A read command's change (tasks cancel) runs read-only here whatever the profile: refused before any read.
      keys('out', ':');
      keys('out', '-l', 'tasks cancel abc123:4567');
      keys('out', 'Enter');
      const ro = await waitFor('out', (x) => /exit \d+:/.test(x), 'tasks cancel refused');
      expect(ro).toContain('exit 4: read-only mode');
      expect(ro).toContain('read-only mode');
      keys('out', 'Escape');
      await waitFor('out', (x) => !x.includes(':tasks cancel'), 'back on the pane');

      // The connection is the console's: a flag that names another is refused, nothing run.
      keys('out', ':');
      keys('out', '-l', 'cat allocation --url http://127.0.0.1:1');
      keys('out', 'Enter');
      await waitFor('out', (x) => x.includes("--url is not taken on the console's line"), 'the refusal of --url');
      keys('out', 'Escape');
      await waitFor('out', (x) => !x.includes('--url is not taken'), 'back on the pane');
    } finally {
      fs.renameSync(`${passwordFile}.away`, passwordFile);
    }
    keys('out', 'q');
    await waitFor('out', (x) => x.includes('EXIT=0'), 'the exit');
  });

  it('read-only: the change commands are neither completed nor opened; the reads still run', async () => {
    launch('ro', '--profile secro --interval 1');
    await waitFor('ro', (s) => /shardeck /.test(s) && s.includes('GREEN'), 'the read-only console', 30_000);
    keys('ro', ':');
    keys('ro', '-l', 'rep');
    await waitFor('ro', (s) => /^:rep_? *$/.test(lineRow(s)), 'rep typed');
    keys('ro', 'Tab');
    // Nothing starts with "rep" but replicas: read-only, the line stays as typed.
    await new Promise((r) => setTimeout(r, 500));
    expect(lineRow(screen('ro'))).toMatch(/^:rep_? *$/);
    keys('ro', '-l', `licas ${INDEX}`);
    keys('ro', 'Enter');
    await waitFor('ro', (s) => s.includes('replicas changes the cluster: not in read-only mode'), 'the refusal');
    keys('ro', 'Escape');
    await waitFor('ro', (s) => !s.includes('not in read-only mode') && s.includes('q quit'), 'back on the pane');
    keys('ro', ':');
    keys('ro', '-l', 'doctor');
    keys('ro', 'Enter');
    const doc = await waitFor('ro', (s) => /exit \d+:/.test(s), 'the doctor run', 60_000);
    expect(doc).toContain(':doctor');
    keys('ro', 'End');
    await waitFor('ro', (s) => /line (\d+) of \1\b/.test(s), 'the last line');
    keys('ro', 'Home');
    await waitFor('ro', (s) => /line 1 of \d+/.test(s) && s.includes('shardeck-shared-secure'), 'the first line again');
    keys('ro', 'Escape');
    await waitFor('ro', (s) => !s.includes(':doctor') && s.includes('q quit'), 'back on the pane');
    keys('ro', 'q');
    await waitFor('ro', (s) => s.includes('EXIT=0'), 'the exit');
  });
});

describe('Tab on the line', () => {
  it('completes flags, index, node and profile names; a second Tab takes the next choice; a password flag is still refused', async () => {
    launch('tab', '--profile sec --interval 1');
    await waitFor('tab', (s) => s.startsWith('[SEC] shardeck ') && s.includes('GREEN'), 'the console', 30_000);
    // The Indices pane has polled the names (Tab completes from what the console read).
    await waitFor('tab', () => true, 'a poll');
    keys('tab', ':');
    keys('tab', '-l', 'cat indices --col');
    keys('tab', 'Tab');
    await waitFor('tab', (s) => lineRow(s).startsWith(':cat indices --columns '), 'the flag completed');
    keys('tab', 'C-u');
    for (let i = 0; i < 40; i++) keys('tab', 'BSpace');
    keys('tab', '-l', `xray ${INDEX.slice(0, -3)}`);
    keys('tab', 'Tab');
    await waitFor('tab', (s) => lineRow(s).startsWith(`:xray ${INDEX} `), 'the index completed');
    for (let i = 0; i < 60; i++) keys('tab', 'BSpace');
    keys('tab', '-l', `drain ${node.name.slice(0, 10)}`);
    keys('tab', 'Tab');
    await waitFor('tab', (s) => lineRow(s).startsWith(`:drain ${node.name} `), 'the node completed');
    for (let i = 0; i < 60; i++) keys('tab', 'BSpace');
    keys('tab', '-l', 'profile se');
    keys('tab', 'Tab');
    // Two profiles start with "se": both listed, the line completed as far as they agree.
    // (the line holds "sec", itself a choice: shown in brackets)
    const listed = await waitFor('tab', (s) => /^:profile sec_? +\[sec\] secro$/m.test(lineRow(s)), 'the choices listed');
    for (const l of listed.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
    keys('tab', 'Tab');
    await waitFor('tab', (s) => /^:profile secro_? +sec \[secro\]/.test(lineRow(s)), 'the next choice taken');
    keys('tab', 'Tab');
    await waitFor('tab', (s) => /^:profile sec_? +\[sec\] secro$/.test(lineRow(s)), 'back to the word as completed');
    for (let i = 0; i < 20; i++) keys('tab', 'BSpace');
    keys('tab', '-l', 'cat indices --password-f');
    keys('tab', 'Tab');
    await new Promise((r) => setTimeout(r, 300));
    // Never offered, and refused when typed.
    expect(lineRow(screen('tab'))).toMatch(/^:cat indices --password-f_? *$/);
    keys('tab', '-l', 'ile /tmp/pw');
    keys('tab', 'Enter');
    await waitFor('tab', (s) => s.includes('a password never goes on the command line'), 'the refusal');
    keys('tab', 'Escape');
    // (Escape and q read together are Alt-q: q once the line is gone)
    await waitFor('tab', (s) => !s.includes('a password never goes'), 'the line closed');
    keys('tab', 'q');
    await waitFor('tab', (s) => s.includes('EXIT=0'), 'the exit');
    expect(fs.readFileSync(path.join(cfg, 'history.json'), 'utf8')).not.toContain('password');
  });
});

describe('y on a JSON view copies the value under the cursor, the footer names its path', () => {
  it("the Documents view's JSON and the index detail's settings and mappings", async () => {
    launch('json', '--profile sec --interval 1');
    await waitFor('json', (s) => s.startsWith('[SEC] shardeck ') && s.includes('GREEN'), 'the console', 30_000);
    keys('json', ':');
    keys('json', '-l', `documents ${INDEX}`);
    keys('json', 'Enter');
    await waitFor('json', (s) => s.includes(`Documents of ${INDEX}`), 'the Documents view');
    keys('json', '-l', 'd1');
    keys('json', 'Enter');
    await waitFor('json', (s) => s.includes('"alice"'), 'the document as JSON');
    tmux('set-buffer', 'not yet');
    // Down to the line of name: y on each line until the clipboard holds its value.
    for (let i = 0; i < 20 && tmux('show-buffer') !== 'alice'; i++) {
      tmux('set-buffer', 'not yet');
      keys('json', 'Down');
      await new Promise((r) => setTimeout(r, 150));
      keys('json', 'y');
      await waitUntil(
        'the copy',
        () => tmux('show-buffer'),
        (b) => b !== 'not yet',
        { timeoutMs: 5000, intervalMs: 100 },
      );
    }
    expect(tmux('show-buffer')).toBe('alice');
    await waitFor('json', (s) => s.includes('copied _source.user.name "alice" (5 chars) to the clipboard (OSC 52, tmux)'), 'the footer');
    // One line up: the object user, copied as its JSON.
    keys('json', 'Up');
    await new Promise((r) => setTimeout(r, 150));
    keys('json', 'y');
    await waitFor('json', (s) => s.includes('copied _source.user "{'), 'the object copied');
    expect(JSON.parse(tmux('show-buffer'))).toEqual({ name: 'alice', city: 'Lyon' });
    keys('json', 'Escape');
    await waitFor('json', (s) => !s.includes('"alice"') && s.includes('Documents of'), 'back on the Documents view');
    keys('json', 'Escape');
    await waitFor('json', (s) => !s.includes('Documents of'), 'the view closed');
    // The index detail: Enter on the index, Tab to Settings, y on the highlighted setting.
    keys('json', ':');
    keys('json', '-l', `indices ${INDEX}`);
    keys('json', 'Enter');
    await waitFor('json', (s) => s.includes(`filter: ${INDEX}`), 'the Indices pane filtered', 30_000);
    await waitFor('json', (s) => new RegExp(`green +open +${INDEX}`).test(s), 'the index row');
    keys('json', 'Enter');
    await waitFor('json', (s) => s.includes(`Index ${INDEX}`), 'the index detail');
    keys('json', 'Tab');
    const settings = await waitFor('json', (s) => /\[Settings\]/.test(s) && s.includes('index.number_of_shards'), 'the settings');
    const first = settings.split('\n').find((l) => /^index\.\S+ +\S/.test(l))!;
    const [key, value] = first.trim().split(/ {2,}/);
    keys('json', 'y');
    await waitFor('json', (s) => s.includes(`copied ${key.length > 24 ? '…' : key}`), 'the setting copied');
    // The whole value, where the screen cut it at 80 columns.
    expect(tmux('show-buffer').startsWith(value.replace(/…$/, ''))).toBe(true);
    keys('json', 'Tab');
    await waitFor('json', (s) => /\[Mappings\]/.test(s) && s.includes('user'), 'the mappings');
    keys('json', 'Down');
    await new Promise((r) => setTimeout(r, 150));
    keys('json', 'y');
    await waitFor('json', (s) => /copied (object|text|keyword) field "user/.test(s), 'the field path copied');
    expect(tmux('show-buffer')).toMatch(/^user/);
    keys('json', 'Escape');
    await waitFor('json', (s) => !s.includes(`Index ${INDEX}`), 'the detail closed');
    keys('json', 'q');
    await waitFor('json', (s) => s.includes('EXIT=0'), 'the exit');
  });
});
