/**
 * Linear growth (issue 13): the parser, the search tokenizer and the `--where` reader on
 * pathological inputs of 10 KB, 100 KB, 300 KB and 1 MB. A family grows linearly when 1 MB takes
 * about 3.3× the 300 KB time; the verdict is MISS when it takes more than 6× (a quadratic family
 * takes ~11×) and more than 100 ms (below that, fixed costs and timer noise make the ratio say
 * nothing; the small sizes are too noisy on a loaded machine to compare at all). A family stops growing once one size takes more than 20 s, so a
 * regression shows as MISS instead of hanging the run. Each cell is the best of three (one
 * for cells over 1 s): minimums, not medians, because the question is the shape, not the noise.
 */
import { fmtMs, printTable, say, verdict } from './lib.mjs';

const SIZES = [10_000, 100_000, 300_000, 1_000_000];
const MAX_RATIO = 6; // why: linear is 3.3× from 300 KB to 1 MB, quadratic 11×; 6 leaves room for GC and cache effects.
const GIVE_UP_MS = 20_000;
const FAST_MS = 100; // why: a megabyte in under 100 ms is fast whatever the ratio; sub-millisecond 100 KB cells make ratios noise.

/** `unit` repeated to `size` characters. */
function fill(unit, size) {
	return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** `n` distinct `key: value` lines inside a frontmatter block, about `size` characters. */
function manyKeys(size) {
	const lines = [];
	let total = 8;
	for (let i = 0; total < size; i++) {
		const line = `key${i}: value ${i}`;
		lines.push(line);
		total += line.length + 1;
	}
	return `---\n${lines.join('\n')}\n---\nbody\n`;
}

/** The pathological families: name → text of about `size` characters. */
export const FAMILIES = {
	'[[ runs': (size) => fill('[[', size),
	backticks: (size) => fill('`', size),
	'%% runs': (size) => fill('%%a', size),
	'nested >': (size) => fill('>', size),
	'line without spaces': (size) => fill('abcdefghij', size),
	'Thai run': (size) => fill('สวัสดีครับผมชื่อสมชายยินดีที่ได้รู้จัก', size),
	'frontmatter keys': manyKeys,
	'nested list markers': (size) => `${'- '.repeat(Math.floor(size / 2) - 2)}word`,
};

/** The `--where` family: a field, a long run of spaces, a value (the filter prompt takes any text). */
const WHERE_FAMILIES = { 'spaces in a clause': (size) => `status${' '.repeat(size - 8)}=x` };

/** Best wall time of `fn(text)` over up to three runs. */
function best(fn, text) {
	let min = Infinity;
	for (let i = 0; i < 3; i++) {
		const started = performance.now();
		fn(text);
		const ms = performance.now() - started;
		min = Math.min(min, ms);
		if (ms > 1000) break;
	}
	return min;
}

/** Times one function over every family and size; returns rows for the record. */
function measure(label, fn, families = FAMILIES) {
	const rows = [];
	for (const [family, make] of Object.entries(families)) {
		const ms = [];
		for (const size of SIZES) {
			const t = best(fn, make(size));
			ms.push(t);
			if (t > GIVE_UP_MS) break;
		}
		const ratio = ms.length === SIZES.length ? Math.round((ms[3] / Math.max(ms[2], 0.01)) * 10) / 10 : null;
		rows.push({
			of: label,
			family,
			ms: ms.map((m) => Math.round(m * 100) / 100),
			ratio1MBto300KB: ratio,
			verdict: verdict(ratio !== null && (ratio <= MAX_RATIO || ms[3] <= FAST_MS)),
		});
	}
	return rows;
}

/** Run the growth job; `engine` is the imported engine bundle. */
export function benchGrowth({ engine }) {
	const where = (t) => engine.parseWhere(engine.splitWhereText(t));
	const rows = [
		...measure('parser', (t) => engine.parseNote(t)),
		...measure('tokenizer', (t) => engine.termsOf(t)),
		...measure('--where', where, WHERE_FAMILIES),
	];
	say('');
	printTable([
		[
			'of',
			'family',
			'10 KB',
			'100 KB',
			'300 KB',
			'1 MB',
			'1 MB / 300 KB',
			`<= ${MAX_RATIO}× or 1 MB <= ${FAST_MS} ms`,
		],
		...rows.map((r) => [
			r.of,
			r.family,
			...SIZES.map((_, i) => (r.ms[i] === undefined ? 'gave up' : fmtMs(r.ms[i]))),
			r.ratio1MBto300KB ?? '—',
			r.verdict,
		]),
	]);
	return { sizes: SIZES, maxRatio: MAX_RATIO, rows };
}
