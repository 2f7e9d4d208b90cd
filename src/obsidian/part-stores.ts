/**
 * The stores the plugin's saved index reads and writes its part through (saved-index.ts): the
 * vault's IndexedDB database, with the note count kept beside the bytes and the postings' records
 * loaded as they are read; and the pieces an index worker sent, when it could not save them itself.
 */
import { concatBytes } from '../core/snapshot/bytes';
import { chunkedPart, sectionSpans } from '../core/snapshot/part-codec';
import type { SnapshotStore } from '../core/snapshot/port';
import { PER_TERM_SECTIONS } from '../core/snapshot/search-part';
import { browserCodecHost } from './browser-codec';
import type { IndexedDbStore } from './idb-store';
import type { LazyPart } from './lazy-part';

/** `store` as a SnapshotStore whose saves record `notes` (the settings tab shows them), its parts read whole. */
export function wholeStore(store: IndexedDbStore, notes: number): SnapshotStore {
	return {
		load: (key) => store.load(key),
		loadReader: (key) => store.loadReader(key),
		save: (key, bytes) => store.save(key, bytes, notes),
		// A re-save's made sections (the postings in term order, ~240 MB at 50k notes) are filled a piece per
		// record put, each in a task of its own, never whole in one block (~0.3 s of a main thread).
		saveStreamed: (key, _size, pieces) => store.save(key, pieces, notes),
		clear: (key) => store.clear(key),
		info: (key) => store.info(key),
	};
}

/**
 * {@link wholeStore} with lazy reads (lazy-part.ts): `loaded` is told each part read, to load the
 * rest of its records later.
 */
export function countedStore(
	store: IndexedDbStore,
	notes: number,
	loaded: (part: LazyPart | null) => void,
): SnapshotStore {
	return {
		...wholeStore(store, notes),
		loadReader: async (key) => {
			const part = await store.loadLazy(key, (head) => sectionSpans(head, browserCodecHost, PER_TERM_SECTIONS));
			loaded(part);
			return part;
		},
	};
}

/**
 * A store holding one part's bytes under `key` in memory, in the pieces the worker posted: restored
 * as a saved part is, read through views of the pieces (never joined into one array).
 */
export function piecesStore(key: string, pieces: readonly Uint8Array[]): SnapshotStore {
	const reader = chunkedPart(
		pieces,
		pieces.reduce((n, piece) => n + piece.length, 0),
	);
	return {
		load: (asked) => Promise.resolve(asked === key ? concatBytes(pieces) : null),
		loadReader: (asked) => Promise.resolve(asked === key ? reader : null),
		save: () => Promise.reject(new Error('read only')),
		clear: () => Promise.resolve(false),
		info: () => Promise.resolve(null),
	};
}
