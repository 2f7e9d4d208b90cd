/**
 * A compact Porter (1980) stemmer for English words. It runs on ASCII words only, on both the
 * index and the query side, so whatever it does to non-English ASCII words it does
 * consistently. Results are memoised: vault vocabularies repeat words heavily.
 */

const CACHE_LIMIT = 100_000; // why: ~100k distinct ASCII words covers a 50k-note vault; cleared wholesale beyond that.
const cache = new Map<string, string>();

function isConsonant(w: string, i: number): boolean {
	const c = w.charCodeAt(i);
	// a e i o u
	if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
	if (c === 121) return i === 0 ? true : !isConsonant(w, i - 1); // y
	return true;
}

/** Porter's m: the number of VC sequences in `w[0..end)`. */
function measure(w: string, end: number): number {
	let n = 0;
	let i = 0;
	while (i < end && isConsonant(w, i)) i++;
	while (i < end) {
		while (i < end && !isConsonant(w, i)) i++;
		if (i >= end) break;
		n++;
		while (i < end && isConsonant(w, i)) i++;
	}
	return n;
}

function hasVowel(w: string, end: number): boolean {
	for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
	return false;
}

function endsDoubleConsonant(w: string): boolean {
	const n = w.length;
	return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** consonant-vowel-consonant ending, the last not w, x or y. */
function endsCvc(w: string, end: number): boolean {
	if (end < 3) return false;
	if (!isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
	const c = w[end - 1];
	return c !== 'w' && c !== 'x' && c !== 'y';
}

const STEP2: readonly [string, string][] = [
	['ational', 'ate'],
	['tional', 'tion'],
	['enci', 'ence'],
	['anci', 'ance'],
	['izer', 'ize'],
	['bli', 'ble'],
	['alli', 'al'],
	['entli', 'ent'],
	['eli', 'e'],
	['ousli', 'ous'],
	['ization', 'ize'],
	['ation', 'ate'],
	['ator', 'ate'],
	['alism', 'al'],
	['iveness', 'ive'],
	['fulness', 'ful'],
	['ousness', 'ous'],
	['aliti', 'al'],
	['iviti', 'ive'],
	['biliti', 'ble'],
	['logi', 'log'],
];
const STEP3: readonly [string, string][] = [
	['icate', 'ic'],
	['ative', ''],
	['alize', 'al'],
	['iciti', 'ic'],
	['ical', 'ic'],
	['ful', ''],
	['ness', ''],
];
const STEP4 = [
	'al',
	'ance',
	'ence',
	'er',
	'ic',
	'able',
	'ible',
	'ant',
	'ement',
	'ment',
	'ent',
	'ion',
	'ou',
	'ism',
	'ate',
	'iti',
	'ous',
	'ive',
	'ize',
];

function replaceSuffix(w: string, table: readonly [string, string][], minM: number): string {
	for (const [suffix, repl] of table) {
		if (w.endsWith(suffix)) {
			const stemEnd = w.length - suffix.length;
			return measure(w, stemEnd) > minM ? w.slice(0, stemEnd) + repl : w;
		}
	}
	return w;
}

/** Porter's step 1 (plurals, -ed, -ing, y → i): the inflections, which never change what a word means. */
function inflection(word: string): string {
	let w = word;
	// Step 1a
	if (w.endsWith('sses')) w = w.slice(0, -2);
	else if (w.endsWith('ies')) w = w.slice(0, -2);
	else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
	// Step 1b
	let fixup = false;
	if (w.endsWith('eed')) {
		if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
	} else if (w.endsWith('ed') && hasVowel(w, w.length - 2)) {
		w = w.slice(0, -2);
		fixup = true;
	} else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) {
		w = w.slice(0, -3);
		fixup = true;
	}
	if (fixup) {
		if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
		else if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
		else if (measure(w, w.length) === 1 && endsCvc(w, w.length)) w += 'e';
	}
	// Step 1c
	if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
	return w;
}

/** Porter's step 5: a final -e and a double l. */
function finalE(word: string): string {
	let w = word;
	if (w.endsWith('e')) {
		const m = measure(w, w.length - 1);
		if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
	}
	if (measure(w, w.length) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
	return w;
}

/** Letters steps 3–4 may cut; beyond that the stem is another word (lightness → light, organize → organ). */
const MAX_DERIVATION_CUT = 2; // why: keeps computer/computing together (comput) but not lightness/light or organize/organ.

/**
 * Porter (1980), made less aggressive: the inflection (step 1) always goes and step 2 maps
 * long suffixes to short ones of the same meaning (optimization → optimize); steps 3–4, which
 * cut suffixes off, only apply when they cut at most {@link MAX_DERIVATION_CUT} letters.
 */
function porter(word: string): string {
	let w = replaceSuffix(inflection(word), STEP2, 0);
	const normalised = w;
	w = replaceSuffix(w, STEP3, 0);
	// Step 4
	for (const suffix of STEP4) {
		if (w.endsWith(suffix)) {
			const stemEnd = w.length - suffix.length;
			if (measure(w, stemEnd) > 1 && (suffix !== 'ion' || /[st]$/.test(w.slice(0, stemEnd))))
				w = w.slice(0, stemEnd);
			break;
		}
	}
	if (normalised.length - w.length > MAX_DERIVATION_CUT) w = normalised;
	return finalE(w);
}

/** The Porter stem of a lower-case ASCII word; words of three letters or fewer are returned as is. */
export function stem(word: string): string {
	if (word.length <= 3) return word;
	const hit = cache.get(word);
	if (hit !== undefined) return hit;
	const out = porter(word);
	if (cache.size >= CACHE_LIMIT) cache.clear();
	cache.set(word, out);
	return out;
}
