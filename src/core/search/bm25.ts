/**
 * Field-weighted BM25: a posting's score from its packed field frequencies, and the per-field
 * length normalisation 1 / (1 - b + b·len/avg) of every note it reads — computed again after any
 * change to the index (the averages move), over every note: at 50k notes tens of milliseconds, so
 * it runs as steps a host's main thread can pause between.
 */
import { FIELD_TF_MASK, FIELD_TFS, TF_BITS } from './packed-tf';
import { FIELD_NAMES, type FieldName, type SearchSettings } from './settings';

/** Notes whose norms are computed between two pauses. */
const NORM_STEP_NOTES = 4096; // why: six fields of 4k notes is about 1 ms on a quiet machine.

/** What the norms are computed from: the notes' field lengths (doc-major) and the index's totals. */
export interface NormInput {
	/** Field lengths in terms, FIELD_NAMES.length per note. */
	fieldLen: ArrayLike<number>;
	/** Notes [0, notes) get norms. */
	notes: number;
	/** Each field's total length over the live notes. */
	totalLen: ArrayLike<number>;
	/** Live notes. */
	live: number;
	/** BM25's b per field. */
	fieldB: Record<FieldName, number>;
}

/**
 * Write the norms of `input`'s notes into `out` (doc-major, like the lengths), pausing after every
 * NORM_STEP_NOTES notes; false when `stale()`, asked after each pause, says the index changed
 * meanwhile (what is written is then to be computed again).
 */
export function* fillNormsSteps(
	out: Float32Array,
	input: NormInput,
	stale: () => boolean,
): Generator<void, boolean, void> {
	const fields = FIELD_NAMES.length;
	const live = Math.max(1, input.live);
	const bs = FIELD_NAMES.map((name) => input.fieldB[name]);
	const avgs = FIELD_NAMES.map((_, f) => Math.max(1, input.totalLen[f]! / live));
	for (let from = 0; from < input.notes; from += NORM_STEP_NOTES) {
		const to = Math.min(input.notes, from + NORM_STEP_NOTES);
		for (let f = 0; f < fields; f++) {
			const b = bs[f]!;
			const avg = avgs[f]!;
			for (let d = from; d < to; d++) {
				const len = input.fieldLen[d * fields + f]!;
				out[d * fields + f] = 1 / (1 - b + (b * len) / avg);
			}
		}
		if (to < input.notes) {
			yield;
			if (stale()) return false;
		}
	}
	return true;
}

/**
 * The score of a posting of a term whose idf is `idf`, from note `d`'s packed field frequencies and
 * `norm` (as `fillNormsSteps` wrote it): per-field BM25 summed with field weights (as MiniSearch and
 * Lucene's multi-field queries do), so a title hit keeps its full weight instead of being
 * flattened by one shared saturation.
 */
export function postingScore(
	settings: SearchSettings,
	norm: Float32Array,
	idf: number,
): (d: number, packed: number) => number {
	const fields = FIELD_NAMES.length;
	const k1 = settings.k1;
	const weights = FIELD_NAMES.map((f) => settings.fieldWeights[f]);
	const k1p1 = k1 + 1;
	return (d, packed) => {
		let sum = 0;
		const base = d * fields;
		let p = packed & FIELD_TFS;
		for (let f = 0; p !== 0; f++, p >>>= TF_BITS) {
			const tf = p & FIELD_TF_MASK;
			if (tf !== 0) {
				const tfn = tf * norm[base + f]!;
				sum += (weights[f]! * tfn * k1p1) / (k1 + tfn);
			}
		}
		return idf * sum;
	};
}
