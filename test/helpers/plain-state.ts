import { docList, type InvertedIndexState } from '../../src/core/search/index-state';

/** An exported index state with its notes' records as a plain list, for comparing two states whole. */
export function plainState(state: InvertedIndexState): Omit<InvertedIndexState, 'docs'> & { docs: unknown[] } {
	return { ...state, docs: docList(state.docs) };
}
