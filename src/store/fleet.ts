// The Fleet view's state: one row per saved profile's cluster (domain/inspect/fleet.ts), worst first, as
// services/fleet.ts FleetWatcher reads them; when the watch started and when the first full table
// (every cluster answered or timed out) was there.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { sortFleet, type FleetRow } from '../domain/inspect/fleet';

export interface FleetState {
  rows: FleetRow[];
  /** Epoch ms the watch started. */
  startedAt?: number;
  /** Epoch ms the first round had every row. */
  fullAt?: number;
  rounds: number;
  /** How often the fleet is read again. */
  intervalMs: number;
}

export type FleetStore = StoreApi<FleetState>;

export function createFleetStore(intervalMs = 15_000): FleetStore {
  return createStore<FleetState>()(() => ({ rows: [], rounds: 0, intervalMs }));
}

/** Puts one cluster's row in place of its old one, keeping the table worst first. */
export function putFleetRow(store: FleetStore, row: FleetRow): void {
  store.setState((s) => ({ rows: sortFleet([...s.rows.filter((r) => r.profile !== row.profile), row]) }));
}
