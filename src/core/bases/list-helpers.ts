/** Aggregates over lists shared by list methods, `min`/`max` and view summaries. */
import { compareValues, numericOf, type Value } from './values';

/** The median of numbers (null when none). */
export function median(ns: number[]): number | null {
	if (ns.length === 0) return null;
	const s = [...ns].sort((a, b) => a - b);
	const mid = s.length >> 1;
	return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The population standard deviation of numbers (null when none). */
export function stddev(ns: number[]): number | null {
	if (ns.length === 0) return null;
	const mean = ns.reduce((a, b) => a + b, 0) / ns.length;
	return Math.sqrt(ns.reduce((a, b) => a + (b - mean) ** 2, 0) / ns.length);
}

/** The least (`sign` -1) or greatest (`sign` 1) number or date of a list, or null. */
export function minOf(list: readonly Value[], sign: 1 | -1): Value {
	let best: Value = null;
	for (const v of list) {
		if (numericOf(v) === null || typeof v === 'boolean') continue;
		if (best === null || Math.sign(compareValues(v, best)) === sign) best = v;
	}
	return best;
}

/** The finite numbers of a list, others left out. */
export function numbers(list: readonly Value[]): number[] {
	const out: number[] = [];
	for (const v of list) {
		const n = typeof v === 'number' ? v : null;
		if (n !== null && Number.isFinite(n)) out.push(n);
	}
	return out;
}
