/**
 * One short list of strings per note — its frontmatter keys, its tags — stored as a dictionary of
 * the distinct strings plus, per note, a range of dictionary ids. A warm `tag` or `prop` call, and
 * the `links:` check behind every backlinks answer, read these columns instead of decoding each
 * note's frontmatter: a few hundred kB of checked columns answer what the 12 MB of metadata
 * answered field by field.
 */
import { bytesOf } from './bytes';

/** The three sections of a set of lists: dictionary (UTF-8 JSON), per-note offsets, ids. */
export interface EncodedLists {
	names: string;
	index: Uint8Array;
	ids: Uint8Array;
}

/** Builds the columns note by note. */
export class StringListsWriter {
	private readonly idOf = new Map<string, number>();
	private readonly names: string[] = [];
	private readonly ids: number[] = [];
	private readonly index: Uint32Array;
	private note = 0;

	/** A writer for `notes` lists. */
	constructor(notes: number) {
		this.index = new Uint32Array(notes + 1);
	}

	/** The next note's list (call once per note, in note order). */
	add(list: readonly string[]): void {
		for (const name of list) {
			let id = this.idOf.get(name);
			if (id === undefined) {
				id = this.names.length;
				this.idOf.set(name, id);
				this.names.push(name);
			}
			this.ids.push(id);
		}
		this.index[++this.note] = this.ids.length;
	}

	/** The finished sections (JSON text of the dictionary, then the two columns as bytes). */
	finish(): EncodedLists {
		return {
			names: JSON.stringify(this.names),
			index: bytesOf(this.index),
			ids: bytesOf(Uint32Array.from(this.ids)),
		};
	}
}

/** The columns read back: each note's list, and the notes holding a given string, without decoding anything per note. */
export class StringLists {
	private readonly idOf = new Map<string, number>();
	private readonly holders = new Map<string, Set<number>>();

	/** Over a dictionary and two columns already checked by the snapshot's checksum; throws when they do not fit together. */
	constructor(
		private readonly names: string[],
		private readonly index: Uint32Array,
		private readonly ids: Uint32Array,
		notes: number,
	) {
		if (!Array.isArray(names) || index.length !== notes + 1 || index[notes]! > ids.length)
			throw new RangeError('list columns do not match the notes');
		for (let i = 0; i < ids.length; i++) if (ids[i]! >= names.length) throw new RangeError('list id out of range');
		names.forEach((name, id) => this.idOf.set(name, id));
	}

	/** Note `i`'s list, as written. */
	of(i: number): string[] {
		const out: string[] = [];
		for (let k = this.index[i]!; k < this.index[i + 1]!; k++) out.push(this.names[this.ids[k]!]!);
		return out;
	}

	/** Whether note `i`'s list holds `name` (the notes holding it are found once per name). */
	has(i: number, name: string): boolean {
		let notes = this.holders.get(name);
		if (notes === undefined) {
			notes = new Set<number>();
			const id = this.idOf.get(name);
			if (id !== undefined) {
				let note = 0;
				for (let k = 0; k < this.ids.length; k++) {
					if (this.ids[k] !== id) continue;
					while (this.index[note + 1]! <= k) note++;
					notes.add(note);
				}
			}
			this.holders.set(name, notes);
		}
		return notes.has(i);
	}
}
