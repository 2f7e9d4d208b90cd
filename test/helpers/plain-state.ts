import type { DocInfo } from '../../src/core/search/extract';
import type { InvertedIndexState, StateDocs } from '../../src/core/search/index-state';

/** Every record of an exported state's notes, in id order (a save reads them one by one). */
export function docList(docs: StateDocs): DocInfo[] {
	return Array.from({ length: docs.length }, (_, d) => docs.info(d));
}

/** An exported index state with its notes' records as a plain list, for comparing two states whole. */
export function plainState(state: InvertedIndexState): Omit<InvertedIndexState, 'docs'> & { docs: unknown[] } {
	return { ...state, docs: docList(state.docs) };
}
