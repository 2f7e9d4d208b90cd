/**
 * The packed term-frequency word of a posting: the term's frequency in each of the six fields,
 * 5 bits per field, in one 32-bit word (and one flag above them, {@link UNREAD_ONLY}); and the typed-array growth the index's columns share.
 */
import { FIELD_NAMES } from './settings';

/** Bits per field in a packed tf word. */
export const TF_BITS = 5;
/** Largest frequency a field records. */
export const TF_MAX = (1 << TF_BITS) - 1; // why: BM25 saturates long before 31 occurrences (k1 = 1.2), so capping loses nothing.
/** Mask of one field's frequency. */
export const FIELD_TF_MASK = TF_MAX;
/**
 * Flag of a posting whose note holds the term only in unread text — code, addresses, HTML
 * comments (extract.ts `TextPiece`) — above the six fields' 30 bits: such a term is searchable but
 * is not a typo correction unless some note holds it in prose.
 */
export const UNREAD_ONLY = 1 << (FIELD_NAMES.length * TF_BITS);
/** The six fields' frequencies of a packed tf word, without the flag. */
export const FIELD_TFS = UNREAD_ONLY - 1;

/** Grow a typed array to at least `need` elements, doubling. */
export function grow<T extends Uint32Array | Float32Array | Uint8Array>(
	arr: T,
	need: number,
	make: (n: number) => T,
): T {
	if (need <= arr.length) return arr;
	let n = Math.max(16, arr.length);
	while (n < need) n *= 2;
	const out = make(n);
	out.set(arr);
	return out;
}

/** A field mask (bit f set when field f has the term) from a packed tf word. */
export function fieldMaskOf(packed: number): number {
	let mask = 0;
	for (let f = 0; f < FIELD_NAMES.length; f++) if ((packed >>> (f * TF_BITS)) & FIELD_TF_MASK) mask |= 1 << f;
	return mask;
}

/** Term frequency of field `f` in a packed tf word. */
export function fieldTf(packed: number, f: number): number {
	return (packed >>> (f * TF_BITS)) & FIELD_TF_MASK;
}
