// How wizards reach the cluster without importing it: the TUI provides WizardServices (built on
// the Guard in services/wizards/index.ts) here; a wizard creates its session once and re-renders on
// every state change of it.
import React, { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { useOptionalConsoleContext } from '../app/context';
import { Text } from '../components/Text';
import type { WizardServices } from '../../services/wizards';

const Ctx = createContext<WizardServices | null>(null);

export function WizardServicesProvider({ value, children }: { value: WizardServices; children: React.ReactNode }) {
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useWizardServices(): WizardServices | null {
  return useContext(Ctx);
}

// Property signatures: a session's getState/subscribe are bound (WizardSession's arrow fields).
interface SessionLike {
  getState: () => unknown;
  subscribe: (fn: () => void) => () => void;
}

/**
 * Creates the session on first render and follows its state. When it ends done, the panes read
 * again (issue 47 item 6): a snapshot or a stop the wizard waited for shows at once, not a poll later.
 */
export function useSession<T extends SessionLike>(create: () => T): [ReturnType<T['getState']>, T] {
  const [session] = useState(create);
  const state = useSyncExternalStore(session.subscribe, session.getState) as ReturnType<T['getState']>;
  // A wizard mounted on its own (the CLI's screens, a test) has no console to refresh.
  const poller = useOptionalConsoleContext()?.poller;
  const done = (state as { phase?: unknown } | null)?.phase === 'done';
  useEffect(() => {
    if (done) void poller?.refreshNow().catch(() => undefined);
  }, [done, poller]);
  return [state, session];
}

/** Renders `View` with the services, or says why changes are not available. */
export function withServices(
  View: React.ComponentType<{ onClose: () => void; services: WizardServices }>,
): React.ComponentType<{ onClose: () => void }> {
  return function WithServices({ onClose }: { onClose: () => void }) {
    const services = useWizardServices();
    return services ? <View onClose={onClose} services={services} /> : <NoServices />;
  };
}

export function NoServices() {
  return <Text>changes are not available here (no connection to the cluster was given to the console)</Text>;
}
