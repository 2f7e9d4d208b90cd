/**
 * What a bulk build of the search index is given (`SearchIndex.build`): progress, pauses, and notes
 * it need not read. `I` is the index a fed read hands over (`SearchIndex`: search.ts names
 * `BuildOptions` so), kept a parameter so this file imports no index (no import cycle).
 */
import type { CountedElsewhere } from './counted-notes';
import type { SearchSettings } from './settings';

/** Progress and cooperative scheduling of a bulk build. */
export interface BuildOptionsOf<I> {
	/** Called after each chunk with notes indexed so far and the total. */
	onProgress?: (done: number, total: number) => void;
	/** Milliseconds of work between yields (default 12, under one 60 Hz frame). */
	sliceMs?: number;
	/** How to yield to the host (default: `hostTurn`, one turn of its event loop). */
	yieldFn?: () => Promise<void>;
	/** Notes read concurrently per batch (default 64). */
	readBatch?: number;
	/** An index fed by the read that opened the vault (fed-notes.ts): finished without reading any note; taken once. */
	fed?: FedIndex<I>;
	/** Notes counted elsewhere (a second worker, counted-notes.ts): taken counted, in their turn, instead of read and counted here. */
	counted?: CountedElsewhere;
}

/** An index fed note by note by a read from scratch (`FedNotes`), as a build finishes it. */
export interface FedIndex<I> {
	/** The index fed so far. */
	readonly index: I;
	/** This fed index for a build with `settings`, once; null when fed for other settings or already taken. */
	take(settings: Partial<SearchSettings>): FedIndex<I> | null;
	/** The build indexes `path` next. */
	meet(path: string): void;
	/** Whether the build met every note fed, in the order fed, and no other. */
	readonly done: boolean;
}
