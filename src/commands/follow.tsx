// shardeck follow [SOCKET]: the same live panes as a sharing leader, rendered at this terminal's
// size from the data the leader already fetched. It opens no connection to the cluster and reads no
// credential: its store is fed by the socket (services/follow-client.ts) instead of a poller.
import React from 'react';
import { render } from 'ink';
import { yogaReady } from '../ui/app/yoga-ready';
import { listShareSockets } from '../config/runtime';
import { UsageError } from '../config/files';
import type { Focus } from '../domain/share';
import { FollowClient, FollowError } from '../services/follow-client';
import { createConsoleStore, PANES, type PaneId } from '../store/console';
import { App } from '../ui/app/App';
import type { ShareControl } from '../ui/app/context';
import { createUiStore, type UiState } from '../ui/state';
import { StopList } from '../domain/host/stop-list';
import { exitThroughStops, holdAlternateScreen, reportStopFailure } from './support/screen';
import { EXIT, type CommandModule } from './support/common';
import { printJson } from './support/guarded';
import { displayText } from '../domain/text/display-text';
import { err } from './support/output';

function tokenFrom(values: Record<string, unknown>): string | undefined {
  const env = values['token-env'] as string | undefined;
  if (env === undefined) return undefined;
  const v = process.env[env];
  if (!v) throw new UsageError(`--token-env ${env}: that variable is empty or not set; put the join token the leader shows into it`);
  return v;
}

const follow: CommandModule = {
  summary: "follow a shared console: the leader's live panes at your own terminal size, without credentials or a connection to the cluster",
  usage: 'usage: shardeck follow [SOCKET] [--token-env VAR] [--json]',
  group: 'watch',
  options: { 'token-env': { type: 'string' } },
  flagHelp: {
    'token-env':
      'variable holding the one-time join token the leader shows, when the leader cannot read your user from the socket: you follow and see, but cannot approve a change (default: none)',
  },
  examples: [
    'shardeck follow',
    'shardeck follow /run/user/1000/shardeck-1000/console-4242.sock',
    'shardeck follow --json | jq .health.status',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length > 1) throw new UsageError('give at most one socket: shardeck follow [SOCKET]');
    const socket = positionals[0] ?? listShareSockets()[0];
    if (!socket) {
      const msg = 'nobody of your user shares a console on this host: ask the leader for the socket path it shows (shardeck follow SOCKET)';
      if (json) printJson({ schema: 1, command: 'follow', ok: false, error: msg });
      err(`shardeck follow: ${msg}\n`);
      return EXIT.failed;
    }
    const token = tokenFrom(values);
    // Placeholders until the leader's hello: nothing here comes from a profile or a flag.
    const store = createConsoleStore({ connection: { url: '(following)', profile: '', insecure: false, readOnly: true } });
    const ui = createUiStore();
    const applyFocus = (f: Focus) => {
      if ((PANES as readonly string[]).includes(f.pane)) store.setState({ pane: f.pane as PaneId });
      ui.setState({
        ...(f.tables ? { tables: f.tables as UiState['tables'] } : {}),
        ...(f.showSystem !== undefined ? { showSystem: f.showSystem } : {}),
        ...(f.problemsOnly !== undefined ? { problemsOnly: f.problemsOnly } : {}),
      });
    };
    const client = new FollowClient(store, socket, { token, onFocus: applyFocus });
    try {
      await client.connect();
    } catch (e) {
      if (!(e instanceof FollowError)) throw e;
      if (json) printJson({ schema: 1, command: 'follow', ok: false, error: e.message });
      err(`shardeck follow: ${displayText(e.message)}\n`);
      return EXIT.failed;
    }

    if (json || !process.stdin.isTTY || !process.stdout.isTTY) {
      // Once: what the leader sees now (its first state arrives right after the hello).
      await new Promise((r) => setTimeout(r, 300));
      const s = store.getState();
      printJson({
        schema: 1,
        command: 'follow',
        ok: true,
        leader: s.share?.leader,
        cluster: s.connection.url,
        health: s.snapshots.health.data ?? null,
        timeline: s.timeline ?? [],
      });
      client.stop();
      const status = s.snapshots.health.data?.status;
      return status === 'red' ? EXIT.red : status === 'yellow' ? EXIT.yellow : EXIT.ok;
    }

    const share: ShareControl = {
      toggleFollow: () => client.toggleFollowing(),
      addNote: (text) => client.note(text),
      approve: (id, text) => client.approve(id, text),
      decline: (id) => client.decline(id),
      propose: (wizard, selection) => client.propose(wizard, selection),
    };
    // What this follower started, stopped last first on q, a signal or a crash (domain/host/stop-list.ts).
    const stops = new StopList();
    stops.add('follow connection', () => client.stop());
    exitThroughStops(stops, 'follower');
    try {
      holdAlternateScreen(stops);
      await yogaReady();
      const instance = render(<App store={store} ui={ui} share={share} />, {
        exitOnCtrlC: false,
        patchConsole: false,
        maxFps: 20,
        incrementalRendering: false,
      });
      stops.add('console screen', () => instance.unmount());
      await instance.waitUntilExit();
    } finally {
      stops.stopAll(reportStopFailure);
    }
    return EXIT.ok;
  },
};

export default follow;
