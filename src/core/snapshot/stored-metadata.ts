/**
 * One note's metadata read from a snapshot: each field is checked and decoded from its own bytes
 * when a query first reads it, then kept. A structural query reads two or three fields of every
 * note, so opening a note must cost next to nothing: one object per note, the field accessors on
 * the prototype (an earlier version defined an accessor per field per note — ~50k closures and
 * dictionary-mode objects on a 6k-note vault, the largest cost of a warm call).
 *
 * What callers see: the fields of `CachedMetadata` by name (absent ones read as undefined and
 * assigning one replaces it), `JSON.stringify` prints exactly what the parser produced (same key
 * order), and a newer parser's unknown fields are own properties. Core reads metadata by field
 * name only; nothing enumerates it.
 */
import type { CachedMetadata } from '../metadata';
import { decodeField, DEFERRED_FIELDS, EXTRA_FIELD, FIELDS, RANGE_WIDTH, TAGGED_FRONTMATTER } from './metadata-codec';

/** Where every note's stored fields are: (code, start, end, check) quadruples, and their bytes. */
export interface FieldStore {
	ranges: Uint32Array;
	/** The bytes of the field at quadruple `r`, or null when its range is out of bounds or unreadable. */
	piece(r: number): Uint8Array | null;
	/** UTF-8 bytes to text. */
	decode(bytes: Uint8Array, start: number, end: number): string;
	/** The check of `bytes[start, end)` (see `fieldCheck`). */
	check(bytes: Uint8Array, start: number, end: number): number;
}

/**
 * Gives a field's value from the note on disk: for a deferred field (`damaged` false) or a stored
 * field whose bytes fail their check or do not parse (`damaged` true).
 */
export type FromDisk = (name: string, damaged: boolean) => unknown;

const STATE = Symbol('stored metadata');
const UNREAD = Symbol('unread');

/** The per-note state, behind a symbol so that keys, `for…in` and JSON never see it. */
interface State {
	store: FieldStore;
	from: number;
	to: number;
	fromDisk: FromDisk;
	/** Value per field code (FIELDS index); UNREAD until read; undefined when the note has no such field. */
	values: unknown[];
}

/** The value of field `code` (a FIELDS index) of the note behind `state`. */
function read(state: State, code: number): unknown {
	const cached = state.values[code];
	if (cached !== UNREAD) return cached;
	let value: unknown;
	const { store } = state;
	for (let r = state.from; r < state.to; r += RANGE_WIDTH) {
		const stored = store.ranges[r];
		if (stored !== code && !(code === 0 && stored === TAGGED_FRONTMATTER)) continue;
		value = decodeStored(state, r, FIELDS[code]!);
		break;
	}
	state.values[code] = value;
	return value;
}

/** The field at quadruple `r`: from its bytes when they pass their check, else from disk. */
function decodeStored(state: State, r: number, name: string): unknown {
	const { store } = state;
	if (DEFERRED_FIELDS.has(name) && store.ranges[r + 1] === store.ranges[r + 2]) return state.fromDisk(name, false);
	const json = checkedText(store, r);
	if (json === null) return state.fromDisk(name, true);
	try {
		return decodeField(store.ranges[r]!, json)[1];
	} catch {
		return state.fromDisk(name, true);
	}
}

/** The text of the field at quadruple `r` when its bytes pass their check, else null. */
function checkedText(store: FieldStore, r: number): string | null {
	const bytes = store.piece(r);
	if (bytes === null || store.check(bytes, 0, bytes.length) !== store.ranges[r + 3]) return null;
	return store.decode(bytes, 0, bytes.length);
}

/** See the module comment. */
class StoredMetadata {
	declare [STATE]: State;

	/** Plain data: every field the note has, in the parser's key order. */
	toJSON(): Record<string, unknown> {
		const state = this[STATE];
		const out: Record<string, unknown> = {};
		for (let r = state.from; r < state.to; r += RANGE_WIDTH) {
			const code = state.store.ranges[r]!;
			if (code === EXTRA_FIELD) {
				const name = extraName(state, r);
				if (name !== null) out[name] = (this as unknown as Record<string, unknown>)[name];
				continue;
			}
			const field = code === TAGGED_FRONTMATTER ? 0 : code;
			const name: string | undefined = FIELDS[field];
			if (name === undefined) continue;
			const value = read(state, field);
			if (value !== undefined)
				Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
		}
		return out;
	}
}

/** The name of the newer parser's field at quadruple `r`, or null when its bytes are damaged. */
function extraName(state: State, r: number): string | null {
	const json = checkedText(state.store, r);
	if (json === null) return null;
	try {
		return decodeField(EXTRA_FIELD, json)[0];
	} catch {
		return null;
	}
}

FIELDS.forEach((name, code) => {
	Object.defineProperty(StoredMetadata.prototype, name, {
		configurable: true,
		enumerable: false,
		get(this: StoredMetadata): unknown {
			return read(this[STATE], code);
		},
		set(this: StoredMetadata, value: unknown) {
			this[STATE].values[code] = value;
		},
	});
});

/**
 * Note metadata over `store.ranges[from, to)`: fields decode when read (see the module comment).
 * A newer parser's fields (not in this build's list) are decoded at once, as own properties.
 */
export function storedMetadata(store: FieldStore, from: number, to: number, fromDisk: FromDisk): CachedMetadata {
	const meta = new StoredMetadata();
	const values = new Array<unknown>(FIELDS.length).fill(UNREAD);
	meta[STATE] = { store, from, to, fromDisk, values };
	for (let r = from; r < to; r += RANGE_WIDTH) {
		if (store.ranges[r] !== EXTRA_FIELD) continue;
		const name = extraName({ store, from, to, fromDisk, values }, r);
		// A damaged field of a newer parser is left out: this build's re-parse would not produce it either.
		if (name !== null)
			Object.defineProperty(meta, name, {
				value: decodeField(EXTRA_FIELD, checkedText(store, r)!)[1],
				writable: true,
				enumerable: true,
				configurable: true,
			});
	}
	return meta as unknown as CachedMetadata;
}
