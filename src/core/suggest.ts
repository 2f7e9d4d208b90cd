/** "Did you mean" helpers for near-miss field names, tags and note names. */

/** Levenshtein distance, bounded: returns `max + 1` early once the distance must exceed `max`. */
export function editDistance(a: string, b: string, max = 3): number {
	if (Math.abs(a.length - b.length) > max) return max + 1;
	let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		let rowMin = i;
		for (let j = 1; j <= b.length; j++) {
			const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
			const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
			current.push(value);
			rowMin = Math.min(rowMin, value);
		}
		if (rowMin > max) return max + 1;
		previous = current;
	}
	return previous[b.length]!;
}

/**
 * The candidates closest to `wanted`: a case-only difference first, then small edit distances
 * (at most a third of the word's length, so short words don't match everything).
 */
export function closest(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
	const lower = wanted.toLowerCase();
	const max = Math.max(1, Math.floor(lower.length / 3));
	const scored: { name: string; distance: number }[] = [];
	for (const name of new Set(candidates)) {
		if (name === wanted) continue;
		const candidate = name.toLowerCase();
		const distance =
			candidate === lower
				? 0
				: candidate.startsWith(lower) || lower.startsWith(candidate)
					? max
					: editDistance(lower, candidate, max);
		if (distance <= max) scored.push({ name, distance });
	}
	return scored
		.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
		.slice(0, limit)
		.map((s) => s.name);
}
