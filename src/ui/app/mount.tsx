// Draws the console into the terminal: the App with the wizards' services, rendered by Ink. Its
// own module so that the console's command (commands/tui/) loads React, Ink and the panes
// (~0.9 MB of code) while its first polls are already on the wire.
import React from 'react';
import { render } from 'ink';
import type { ConsoleStore } from '../../store/console';
import type { WizardServices } from '../../services/wizards';
import { App } from './App';
import {
  LineCommandsProvider,
  type ConsoleFiles,
  type FleetControl,
  type LineCommands,
  type PollControl,
  type ShareControl,
} from './context';
import type { UiStore } from '../state';
import { WizardServicesProvider } from '../wizards/services';
import { yogaReady } from './yoga-ready';

export async function mountConsole(
  store: ConsoleStore,
  props: { poller: PollControl; ui?: UiStore; share?: ShareControl; fleet?: FleetControl; files?: ConsoleFiles },
  services: WizardServices,
  /** The stream Ink draws on (the tui command's keeps the last frame for the screen dump); process.stdout when absent. */
  stdout?: NodeJS.WriteStream,
  /** The read commands the command line runs (`:cat allocation`). */
  commands?: LineCommands,
) {
  await yogaReady();
  return render(
    <WizardServicesProvider value={services}>
      <LineCommandsProvider value={commands}>
        <App store={store} {...props} />
      </LineCommandsProvider>
    </WizardServicesProvider>,
    {
      ...(stdout ? { stdout } : {}),
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 20,
      incrementalRendering: false,
    },
  );
}
