/**
 * A re-save in the index worker: the saved part is loaded from IndexedDB, the notes changed since
 * its stamps are asked of the main thread and re-indexed, and the part is saved again under the
 * stats the main thread sent. It is what the CLI does at each call (restore, reconcile, save), on
 * a worker's heap: the main thread, which answers searches from its own copy of the index, neither
 * encodes ~130 MB at 50k notes nor takes the memory that needs (at 50k notes a re-save on the main
 * thread took ~660 MB of fresh memory and 4–5 s of its CPU; History in docs/BENCHMARKS.md).
 */
import { applyPath } from '../core/engine/apply';
import { scopeRules } from '../core/scope';
import { IndexParts, type SavedEngine } from '../core/snapshot/index-parts';
import type { SearchIndex } from '../core/search/search-index';
import { browserCodecHost } from './browser-codec';
import { IndexedDbStore } from './idb-store';
import { wholeStore } from './part-stores';
import type { PostedNotes } from './posted-notes';
import { NO_WORKER_STORE, unpackStamps, type RefreshRequest } from './worker-protocol';

/** An engine as a save reads it, holding only `index` (no change comes in: the refresh is its only job). */
function heldIndex(index: SearchIndex): SavedEngine {
	return {
		builtSearchIndex: index,
		trigrams: null,
		settled: <T>(job?: () => Promise<T>) => (job ? job() : Promise.resolve(undefined as T)),
	};
}

/**
 * Refresh the saved part `request` names over `notes` (a PostedNotes over the request, reading no
 * note it is not asked for); resolves with the notes re-indexed, rejects with why it cannot: no
 * IndexedDB here, no saved part of this build and these settings, a damaged one, or a failed save.
 */
export async function refreshPart(request: RefreshRequest, notes: PostedNotes): Promise<number> {
	if (typeof indexedDB === 'undefined') throw new Error(NO_WORKER_STORE);
	const stamps = unpackStamps(request.part.stamps);
	const store = new IndexedDbStore(request.target.database);
	try {
		const parts = new IndexParts({
			store: wholeStore(store, request.target.notes), // read whole: a worker answers no search meanwhile
			host: browserCodecHost,
			vaultKey: 'vault',
			tool: request.part.tool,
			vaultSettings: request.part.vaultSettings,
			fingerprints: stamps,
			buildTrigrams: false,
		});
		const loaded = await parts.searchIndex(request.settings);
		if (loaded === null) throw new Error(parts.report.notes.join('; ') || 'no saved index to refresh');
		const index = loaded.index;
		index.source = notes; // its upserts leave out the config folder the source names
		// Every changed note here before the first is applied: applyPath asks a note's skip reason before its text.
		await notes.fetch(loaded.changed);
		const rules = scopeRules(notes, { excludedFolders: request.settings.excludedFolders });
		for (const path of loaded.changed) await applyPath(index, notes, () => rules, path);
		// As the engine does with a part it loads: what the rules leave out and the skipped notes counted again.
		await index.refreshScope(notes, loaded.changed);
		const failure = await parts.save(heldIndex(index), ['search'], true);
		if (failure !== null) throw new Error(failure);
		return loaded.changed.length;
	} finally {
		store.close();
	}
}
