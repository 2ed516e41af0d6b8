// A table pane must not keep the previous snapshot's rows once the new ones are drawn. React keeps a
// component's last render (its hooks' values, its children's props) in the component's other fibre
// until the component renders again: at 100,000 indices that is a whole extra set of rows alive
// through the next poll, a third set during a poll that changed every row (peak RSS, issue 29).
//
// In a fresh process with production React, bundled like the console (dev/build.mjs): React's
// development build keeps every element's creation stack (with the closures and props it ran in)
// on its fibres, which would hold the rows whatever the panes do.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { bundleAliases } from '../../dev/lib/bundle-aliases.mjs';

const root = path.join(__dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-previous-rows-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The real App on a fake terminal; a pane's snapshot replaced by one whose every row changed.
// Prints, per pane, whether a row of the first snapshot is still reachable after a full collection.
const ENTRY = `
import React from 'react';
import { render } from 'ink';
import v8 from 'node:v8';
import vm from 'node:vm';
import { App } from './src/ui/app/App';
import { createUiStore } from './src/ui/state';
import { createConsoleStore, setSnapshot } from './src/store/console';
import { FakeStdin, FakeStdout } from './test/helpers/fake-terminal';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const N = 500;
const name = (i) => 'service_v9_p' + String(i).padStart(5, '0');
const ROWS = {
  indices: (poll) => Array.from({ length: N }, (_, i) => ({
    name: name(i), health: 'green', status: 'open', primaries: 1, replicas: 0,
    docsCount: 1000 * poll + i, docsDeleted: 0, storeBytes: i * 10, priStoreBytes: i * 10, system: false,
  })),
  shards: (poll) => Array.from({ length: N }, (_, i) => ({
    index: name(i), shard: 0, primary: true, state: 'STARTED', node: 'storage-1',
    docs: i, storeBytes: 100000 * poll + i, unassignedReason: null, unassignedDetails: null,
  })),
};
const turn = () => new Promise((r) => setTimeout(r, 0));
async function settled(stdout) {
  let seen = stdout.frames.length;
  for (let t = 0, quiet = 0; t < 500 && quiet < 3; t++) {
    await turn();
    if (stdout.frames.length === seen) quiet++;
    else [seen, quiet] = [stdout.frames.length, 0];
  }
}
// Made in a function of its own, so no variable of the run holds the rows; a row off screen.
function firstSnapshot(store, pane) {
  const rows = ROWS[pane](0);
  setSnapshot(store, pane, { data: rows, fetchedAt: Date.now(), failures: 0 });
  return new WeakRef(rows[N - 1]);
}
const out = {};
for (const pane of ['indices', 'shards']) {
  const store = createConsoleStore({ connection: { url: 'http://127.0.0.1:9200', profile: 'test', insecure: false, readOnly: false } });
  store.setState({ pane });
  const first = firstSnapshot(store, pane);
  const stdout = new FakeStdout(100, 30);
  const app = render(React.createElement(App, { store, ui: createUiStore(), poller: { refreshNow: async () => {}, diagnose: async () => {} } }), {
    stdout, stdin: new FakeStdin(), stderr: new FakeStdout(100, 30), debug: true, exitOnCtrlC: false, patchConsole: false,
  });
  await settled(stdout);
  const before = stdout.last;
  setSnapshot(store, pane, { data: ROWS[pane](1), fetchedAt: Date.now(), failures: 0 });
  await settled(stdout);
  gc();
  out[pane] = { drawn: before.includes(name(0)), redrawn: stdout.last !== before, firstHeld: first.deref() !== undefined };
  app.unmount();
}
process.stdout.write(JSON.stringify(out));
process.exit(0);
`;

it('indices and shards: the previous snapshot’s rows are not held once the new ones are drawn', async () => {
  const outfile = path.join(dir, 'previous-rows.mjs');
  await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'tsx' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: bundleAliases(root),
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
  const result = JSON.parse(execFileSync(process.execPath, [outfile], { cwd: root, encoding: 'utf8' }));
  for (const pane of ['indices', 'shards']) {
    expect(result[pane], pane).toEqual({ drawn: true, redrawn: true, firstHeld: false });
  }
}, 120_000);
