// The one keypress router. useInput is called once, here; everything else registers a layer.
// Layers are asked from the highest priority down (dialog > filter > pane > global) and a handler
// returns true when it consumed the key. Modal layers (a dialog, the filter prompt) swallow every
// key they do not handle, so global keys are off while they are open. Within a layer the latest
// registration goes first (a wizard's own keys before the console's Esc fallback). Ctrl-C always quits.
import React, { createContext, useCallback, useContext, useEffect, useRef } from 'react';
import { useInput } from 'ink';
import { charName, keyName } from './keys';

export type Layer = 'dialog' | 'filter' | 'pane' | 'global';

const PRIORITY: Record<Layer, number> = { dialog: 3, filter: 2, pane: 1, global: 0 };
const MODAL = new Set<Layer>(['dialog', 'filter']);

/** Gets the key name (see keys.ts) and the raw input (for text entry); true = consumed. */
export type KeyHandler = (name: string, input: string) => boolean;

interface Registered {
  layer: Layer;
  handler: { current: KeyHandler };
  seq?: number;
}

type Register = (r: Registered) => () => void;

const RouterCtx = createContext<Register | null>(null);

export function KeyRouter({ onInterrupt, children }: { onInterrupt: () => void; children: React.ReactNode }) {
  const layers = useRef(new Set<Registered>());
  const seq = useRef(0);
  // Stable, so layers register once per mount rather than on every render of the router.
  const register = useCallback<Register>((r) => {
    r.seq = seq.current++;
    layers.current.add(r);
    return () => void layers.current.delete(r);
  }, []);
  const dispatch = (name: string, input: string) => {
    if (name === 'ctrl-c') return onInterrupt();
    const ordered = [...layers.current].sort((a, b) => PRIORITY[b.layer] - PRIORITY[a.layer] || (b.seq ?? 0) - (a.seq ?? 0));
    for (const [i, l] of ordered.entries()) {
      if (l.handler.current(name, input)) return;
      // A modal layer ends the search once all of its handlers had their turn.
      if (MODAL.has(l.layer) && ordered[i + 1]?.layer !== l.layer) return;
    }
  };
  // Keys typed faster than a read (or pasted) arrive as one string: they are taken one by one,
  // each after the screen caught up with the one before (a pane switch registers the new pane's
  // keys), and a key that arrives meanwhile waits its turn behind them (an Enter after a pasted
  // name must not overtake the name).
  const queue = useRef<[string, string][]>([]);
  const draining = useRef(false);
  const drain = () => {
    const next = queue.current.shift();
    if (!next) {
      draining.current = false;
      return;
    }
    draining.current = true;
    dispatch(...next);
    setTimeout(drain, 0);
  };
  useInput((input, key) => {
    const name = keyName(input, key);
    if (name === input && input.length > 1 && !input.startsWith('\u001b'))
      queue.current.push(...[...input].map((ch): [string, string] => [charName(ch), ch]));
    else queue.current.push([name, input]);
    if (!draining.current) drain();
  });
  return <RouterCtx.Provider value={register}>{children}</RouterCtx.Provider>;
}

/** Registers a handler on a layer while `active`; the latest handler closure is always used. */
export function useKeyLayer(layer: Layer, handler: KeyHandler, active = true): void {
  const register = useContext(RouterCtx);
  if (!register) throw new Error('useKeyLayer outside <KeyRouter>');
  const ref = useRef(handler);
  // eslint-disable-next-line react-hooks/refs -- the latest handler closure, read by the router at key time
  ref.current = handler;
  useEffect(() => (active ? register({ layer, handler: ref }) : undefined), [register, layer, active]);
}
