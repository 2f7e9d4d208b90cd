/**
 * The token estimator of context packs: the seed's characters / 4, except that each CJK
 * character counts as one token. Chinese, Japanese and Korean text tokenizes at roughly one
 * token per character in current LLM tokenizers, so characters / 4 would undercount it about
 * fourfold and a "2000-token" pack of Chinese quotes would really be ~8000 tokens.
 *
 * A CJK character is a code point in: CJK radicals through unified ideographs, which include
 * CJK punctuation, kana, Bopomofo and Hangul compatibility jamo (U+2E80–U+9FFF); Hangul jamo
 * (U+1100–U+11FF, U+A960–U+A97F, U+D7B0–U+D7FF) and syllables (U+AC00–U+D7AF); compatibility
 * ideographs (U+F900–U+FAFF); vertical and small forms (U+FE10–U+FE1F, U+FE30–U+FE6F);
 * half-width and full-width forms (U+FF00–U+FFEF); the supplementary ideographic planes
 * (U+20000–U+3FFFF). Every other code point (not UTF-16 unit) is one character of the /4 part.
 *
 * Estimates of concatenated texts add exactly through {@link TokenCount}, which is what lets
 * the budget be checked piece by piece and still hold for the whole rendered pack.
 */

/** How the handoff names this estimator. */
export const TOKEN_ESTIMATOR = 'ceil(non-CJK characters / 4) + 1 per CJK character';

/** The two counts an estimate is made of; counts of concatenated texts add up exactly. */
export interface TokenCount {
	/** CJK code points (one token each). */
	cjk: number;
	/** Every other code point (four per token). */
	other: number;
}

/** Whether a code point counts as one CJK token (the ranges of the module comment). */
export function isCjkCodePoint(cp: number): boolean {
	if (cp < 0x1100) return false;
	if (cp <= 0x11ff) return true;
	if (cp < 0x2e80) return false;
	if (cp <= 0x9fff) return true;
	if (cp >= 0xa960 && cp <= 0xa97f) return true;
	if (cp >= 0xac00 && cp <= 0xd7ff) return true;
	if (cp >= 0xf900 && cp <= 0xfaff) return true;
	if (cp >= 0xfe10 && cp <= 0xfe1f) return true;
	if (cp >= 0xfe30 && cp <= 0xfe6f) return true;
	if (cp >= 0xff00 && cp <= 0xffef) return true;
	return cp >= 0x20000 && cp <= 0x3ffff;
}

/** A code unit from U+1100 on: a CJK character or a surrogate may be there (below it, every unit is one non-CJK code point). */
const HIGH_UNIT = /[\u1100-\uffff]/;

/** Count the CJK and other code points of a text. */
export function countTokens(text: string): TokenCount {
	// Fast path for the common case (Latin, Cyrillic… text): one native scan instead of a loop per unit.
	if (!HIGH_UNIT.test(text)) return { cjk: 0, other: text.length };
	let cjk = 0;
	let other = 0;
	const n = text.length;
	for (let i = 0; i < n; i++) {
		let cp = text.charCodeAt(i);
		if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
			const low = text.charCodeAt(i + 1);
			if (low >= 0xdc00 && low <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
				i++;
			}
		}
		if (isCjkCodePoint(cp)) cjk++;
		else other++;
	}
	return { cjk, other };
}

/** The sum of several counts (the count of the concatenated texts). */
export function addCounts(...counts: readonly TokenCount[]): TokenCount {
	let cjk = 0;
	let other = 0;
	for (const c of counts) {
		cjk += c.cjk;
		other += c.other;
	}
	return { cjk, other };
}

/** Tokens of a count: CJK characters plus the other characters / 4, rounded up. */
export function tokensOf(count: TokenCount): number {
	return count.cjk + Math.ceil(count.other / 4);
}

/**
 * The estimated tokens of a text.
 *
 * @example
 * estimateTokens('abcdefgh'); // 2
 * estimateTokens('如何创建链接？'); // 7
 */
export function estimateTokens(text: string): number {
	return tokensOf(countTokens(text));
}
