// Opening, closing and filling the index detail in the console store. The view opens it; the
// service (services/index-detail.ts) sees which index is open and writes each read as it arrives.
import { emptyDetail, type IndexDetail } from '../domain/inspect/index-detail';
import type { ConsoleStore } from './console';

export function openIndexDetail(store: ConsoleStore, index: string): void {
  store.setState({ indexDetail: emptyDetail(index) });
}

export function closeIndexDetail(store: ConsoleStore): void {
  store.setState({ indexDetail: undefined });
}

/** Merges into the detail of `index`; a read that arrives after the operator left (or opened another index) is dropped. */
export function patchIndexDetail(store: ConsoleStore, index: string, patch: (d: IndexDetail) => Partial<IndexDetail>): void {
  store.setState((s) => (s.indexDetail?.index === index ? { indexDetail: { ...s.indexDetail, ...patch(s.indexDetail) } } : {}));
}
