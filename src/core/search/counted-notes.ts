/**
 * A build shared by two counters: the later notes of a vault are counted apart (the plugin's
 * second index worker) and added to the index in walk order, so the index is the very one a
 * single build makes — term ids included: each of the other counter's terms gets the index's id
 * when its first note is added, which is when a single build would have met it.
 */
import { extractNote, type DocInfo } from './extract';
import type { CachedMetadata } from '../metadata';
import { NoteTermCounter } from './note-terms';
import type { SearchSettings } from './settings';
import { TermDictionary } from './term-dictionary';

/** A note counted apart: its record, and its terms as the counting side's ids with their packed frequencies (packed-tf.ts). */
export interface CountedNote {
	readonly info: DocInfo;
	/** The counting side's term ids, in the order the note first holds them. */
	readonly terms: ArrayLike<number>;
	/** Packed field frequencies, parallel to `terms`. */
	readonly tfs: ArrayLike<number>;
	/** Terms per field (`FIELD_NAMES` order). */
	readonly fieldLen: ArrayLike<number>;
}

/** Notes a build takes counted from elsewhere instead of reading and counting them itself (`BuildOptions.counted`). */
export interface CountedElsewhere {
	/** Whether `path` is counted elsewhere. */
	has(path: string): boolean;
	/** The note counted, once it is; null when it will not be (the other side failed): the build reads and counts it itself. */
	take(path: string): Promise<CountedNote | null>;
	/** The counting side's term of its id `id` (known once a note holding it was taken). */
	term(id: number): string;
}

/** Counts notes apart from any index, as a build would (derived fields not kept), with a dictionary of its own. */
export class DetachedCounter {
	private readonly dictionary = new TermDictionary();
	private readonly counter = new NoteTermCounter(this.dictionary);
	/** Terms handed over by `newTerms` so far. */
	private told = 0;

	/** A counter for an index with these (resolved) settings. */
	constructor(private readonly settings: SearchSettings) {}

	/** Count one note: its record and terms, valid until the next count (copy the columns out). */
	count(note: { path: string; text: string; metadata: CachedMetadata | null }): CountedNote {
		const { info, fields } = extractNote(note.path, note.text, note.metadata, this.settings, false);
		this.counter.count(fields);
		return { info, terms: this.counter.terms, tfs: this.counter.tfs, fieldLen: this.counter.fieldLen };
	}

	/** The terms first counted since the last call, in id order (the first has id = the terms told before). */
	newTerms(): string[] {
		const all = this.dictionary.all();
		const fresh = all.slice(this.told);
		this.told = all.length;
		return fresh;
	}
}

/** The other counter's term ids as an index's: each is given the index's id when first met. */
export class ForeignTermIds {
	private ids = new Int32Array(1024).fill(-1);

	/** Ids for `dictionary`, the other side's terms named by `termOf`. */
	constructor(
		private readonly dictionary: TermDictionary,
		private readonly termOf: (id: number) => string,
	) {}

	/** The index's id of the other side's term `id` (added to the dictionary when new). */
	id(id: number): number {
		if (id >= this.ids.length) {
			const grown = new Int32Array(Math.max(id + 1, this.ids.length * 2)).fill(-1);
			grown.set(this.ids);
			this.ids = grown;
		}
		let own = this.ids[id]!;
		if (own < 0) own = this.ids[id] = this.dictionary.add(this.termOf(id));
		return own;
	}
}
