// The live console (the default command): polls the node outside React and renders the panes.
// The terminal is always given back: on q, on Ctrl-C, on SIGTERM/SIGHUP and on a crash.
import React from 'react';
import { render } from 'ink';
import { UsageError } from '../config/connection';
import { createConsoleStore } from '../store/console';
import { Poller } from '../services/poller';
import { App } from '../ui/app/App';
import { WizardServicesProvider } from '../ui/wizards/services';
import { createEsApi } from '../cluster/api';
import { Guard } from '../services/guard';
import { createWizardServices } from '../services/wizards';
import { connectionSecrets } from '../domain/host-env';
import { startPlatformSignIn } from '../services/platform-sign-in';
import { FleetReader, FleetWatcher, fleetTargets } from '../services/fleet';
import { createFleetStore } from '../store/fleet';
import type { FleetControl } from '../ui/app/context';
import { EXIT, openConnection, type CommandModule, type CommandContext } from './common';

// The alternate screen: the console draws on its own page and the shell's screen comes back on exit.
const ENTER_ALT_SCREEN = '\u001b[?1049h';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';
const SHOW_CURSOR = '\u001b[?25h';

export const MIN_INTERVAL_S = 1;

export function parseInterval(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const s = Number(raw);
  if (!Number.isFinite(s) || s < MIN_INTERVAL_S) {
    throw new UsageError(`--interval "${raw}" is not a number of seconds: give ${MIN_INTERVAL_S} or more, e.g. --interval 5`);
  }
  return Math.round(s * 1000);
}

const tui: CommandModule = {
  summary: 'the live console: health, indices, shards, disk and nodes of the storage node, refreshed every few seconds',
  usage: 'usage: shardeck [tui] [--url URL] [--user NAME --password-env VAR|--password-file F] [--ca FILE] [--insecure] [--profile NAME] [--read-only] [--interval SECONDS]',
  options: { interval: { type: 'string' } },
  async run({ values }) {
    const intervalMs = parseInterval(values.interval as string | undefined);
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      process.stderr.write('shardeck: the console needs a terminal; for scripts and checks use `shardeck status` (with --json)\n');
      return EXIT.usage;
    }
    // Enter in the Fleet view leaves this console for another profile's: the same process opens
    // that profile's connection (its own password source, never the one of the profile before).
    let next: CommandContext['values'] | undefined = values;
    while (next) next = await runConsole(next, intervalMs);
    return EXIT.ok;
  },
};

/** One console on one connection; the flags of the next console when the operator switched profile. */
async function runConsole(values: CommandContext['values'], intervalMs: number | undefined): Promise<CommandContext['values'] | undefined> {
  const { client, conn, where, profileName, profile } = await openConnection(values);
  const store = createConsoleStore({
    connection: { url: where, profile: profileName, user: conn.user, insecure: Boolean(conn.insecure), readOnly: conn.readOnly },
    ...(profile?.templateVersion ? { templateVersion: profile.templateVersion } : {}),
    ...((intervalMs ?? profile?.intervalMs) ? { intervalMs: intervalMs ?? profile?.intervalMs } : {}),
  });
  const es = createEsApi(client, conn.url);
  const poller = new Poller(es, store);
  // Signs in to the platform when the profile has one (header user@tenant, project names).
  const platform = startPlatformSignIn(store, profileName, profile);
  // Every wizard's change goes through this one guard (preview, confirm, audit, verify).
  const guard = new Guard({ client, conn, profile: profileName, platformUser: () => store.getState().platform.user });
  const wizardServices = createWizardServices(es, guard, { serviceStop: profile?.serviceStop, serviceStart: profile?.serviceStart, hostSecrets: connectionSecrets(conn) });

  // The Fleet view (F): every saved profile's cluster, read only while the view is open.
  let switchTo: string | undefined;
  let watcher: FleetWatcher | undefined;
  const fleetStore = createFleetStore();
  const fleet: FleetControl = {
    store: fleetStore,
    start: () => {
      watcher = new FleetWatcher(new FleetReader(fleetTargets()), fleetStore);
      watcher.start();
    },
    stop: () => {
      void watcher?.stop();
      watcher = undefined;
    },
    open: (name) => {
      switchTo = name;
      instance.unmount();
    },
  };

  process.stdout.write(ENTER_ALT_SCREEN);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    poller.stop();
    platform.stop();
    fleet.stop();
    instance.unmount();
    process.stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  const crash = (e: unknown) => {
    restore();
    process.stderr.write(`shardeck: the console crashed: ${(e as Error)?.stack ?? e}\n`);
    process.exit(70);
  };
  const signal = () => {
    restore();
    process.exit(130);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.on('SIGTERM', signal);
  process.on('SIGHUP', signal);

  const instance = render(
    <WizardServicesProvider value={wizardServices}>
      <App store={store} poller={poller} fleet={fleet} />
    </WizardServicesProvider>,
    {
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 20,
      incrementalRendering: false,
    },
  );
  poller.start();
  try {
    await instance.waitUntilExit();
  } finally {
    restore();
    void client.close();
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
    process.off('SIGTERM', signal);
    process.off('SIGHUP', signal);
  }
  return switchTo === undefined ? undefined : { profile: switchTo, 'read-only': values['read-only'], interval: values.interval };
}

export default tui;
