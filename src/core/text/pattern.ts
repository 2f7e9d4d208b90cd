/**
 * Reading a user's pattern before anything runs it: the bounds every pattern meets, and the
 * features the linear-time engine (RE2, through re2js) cannot offer, each refused by name.
 */

/** Longest regular expression accepted, in characters: far beyond any hand-written pattern. */
export const MAX_REGEX_CHARS = 1000;
/** Longest literal (substring or phrase) accepted, in characters. */
export const MAX_LITERAL_CHARS = 10_000;
/** Largest compiled regex accepted, in RE2 instructions (`(\w+\s+){200}` is about 2,000). */
export const MAX_REGEX_PROGRAM = 5000;
/**
 * A regex scans at most this many characters of one line: a longer line is searched in its first
 * part only, and the answer says so. Together with {@link MAX_REGEX_PROGRAM} it bounds one attempt.
 */
export const MAX_REGEX_LINE_CHARS = 100_000;

/** The regex features RE2 has no linear-time algorithm for, with what the user typed for each. */
const UNSUPPORTED: { test: RegExp; feature: string }[] = [
	{ test: /^\(\?[=!]/, feature: 'a lookahead' },
	{ test: /^\(\?<[=!]/, feature: 'a lookbehind' },
	{ test: /^\\[1-9]/, feature: 'a backreference' },
	{ test: /^\\k</, feature: 'a named backreference' },
];

/**
 * The first construct in `pattern` that the linear-time engine cannot run, as `{ text, feature }`, or
 * null. Escapes and character classes are skipped, where these characters are literal.
 */
export function unsupportedFeature(pattern: string): { text: string; feature: string } | null {
	let inClass = false;
	for (let i = 0; i < pattern.length; i++) {
		const ch = pattern[i];
		if (!inClass) {
			const rest = pattern.slice(i, i + 4);
			const hit = UNSUPPORTED.find((u) => u.test.test(rest));
			if (hit) return { text: (rest.match(/^\\k<|^\\\d|^\(\?<?[=!]/) ?? [rest])[0], feature: hit.feature };
		}
		if (ch === '\\') i++;
		else if (ch === '[') inClass = true;
		else if (ch === ']') inClass = false;
	}
	return null;
}

/** Why a pattern is refused before compiling, or null: empty, too long, or using what RE2 cannot do. */
export function patternProblem(pattern: string, regex: boolean): string | null {
	if (pattern === '') return 'pattern: empty pattern';
	const limit = regex ? MAX_REGEX_CHARS : MAX_LITERAL_CHARS;
	if (pattern.length > limit) {
		return `pattern: ${pattern.length} characters is longer than the ${limit}-character limit for a ${regex ? 'regular expression' : 'literal'}`;
	}
	if (!regex) return null;
	const unsupported = unsupportedFeature(pattern);
	if (unsupported) {
		return `pattern: refused, "${unsupported.text}" is ${unsupported.feature}, which linear-time regular expressions (RE2 syntax) do not support; rewrite the pattern without it`;
	}
	return null;
}
