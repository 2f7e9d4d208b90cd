/**
 * Unicode-aware tokenization shared by the index and the query side, so both always agree:
 * NFKC + case folding, diacritics folded for Latin and Greek, kebab/snake/camel variants,
 * English stop words and Porter stems for ASCII words, character bigrams for Han and kana,
 * word + bigrams for Hangul, and `Intl.Segmenter` words for Thai, Lao, Khmer and Myanmar.
 *
 * The index side never calls `Intl.Segmenter` on CJK text: bigrams are as good for recall and
 * ten times cheaper. The query side does, to group bigrams into the words a person meant, so
 * each query word is reported (and counted for coverage) as one term.
 */
import { segmentBounded } from '../segment';
import { forEachWord } from './words';
import { stem } from './stem';

/** Longest token kept; longer runs are hashes, URLs or base64 and only bloat the dictionary. */
const MAX_TOKEN_LENGTH = 40; // why: the longest English/German words in real vaults stay well under 40.
/** More parts than this in a kebab/snake/camel compound and the joined form is not indexed. */
const MAX_COMPOUND_PARTS = 6; // why: identifiers like a-b-c-d-e-f-g are slugs, not compounds anyone types joined.

/** Words searched for but never indexed: English function and question words, and the commonest Romance/German ones. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
	(
		'a an the and or but if in on at by for with to from of is it its that this these those as are was were be been being ' +
		'do does did doing how what which who whom whose why when where can could should would will shall may might must ' +
		'i me my we our you your he him his she her they them their not no nor so than then there here into onto about ' +
		'also just only some any each such up out very too via vs etc am has have had having get got ' +
		// Articles and prepositions of Spanish, French, Portuguese, Italian and German that are not
		// also English words (so not `den`, `die`, `con`, `par`, `dos`, `war`).
		'el la los las del y en un una para por que se al lo como le les des du et une pour avec qui dans sur au aux est ' +
		'da do das e em um uma com os na il di della che per der das und dem ein eine einen mit von zu ist im auf nicht'
	).split(' '),
);

/** Chinese and Japanese function words and question words dropped from queries (Segmenter output). */
export const CJK_STOP_WORDS: ReadonlySet<string> = new Set(
	(
		'的 了 在 是 和 与 與 及 或 吗 嗎 呢 吧 啊 也 都 就 把 被 让 讓 给 給 对 對 从 從 向 为 為 以 而 之 于 於 我 你 他 她 它 ' +
		'我们 我們 你们 你們 如何 怎么 怎麼 怎样 怎樣 什么 什麼 哪些 哪个 哪個 为什么 為什麼 为何 為何 可以 能 会 會 要 有 没有 沒有 一个 一個 这 這 那 这个 這個 那个 那個 ' +
		'の を に は が で と も へ や から まで より する した して します しました ます です だ こと もの これ それ この その あの よう ため など ない れる られる か な ね よ どう どの 何 方法 やり方 には では とは'
	).split(' '),
);

const NEEDS_FOLD_RE = /[\u00c0-\u024f\u0370-\u03ff\u1e00-\u1fff\u00df\u03c2]/;
const COMBINING_RE = /\p{Mn}/gu;
const SPECIAL_RE =
	/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30fc\u3005\u3006\u3007\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
const SPLIT_SPECIAL_RE =
	/([\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005\u3006\u3007]+)|(\p{sc=Hangul}+)|([\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{M}]+)|([^\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005\u3006\u3007\p{sc=Hangul}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]+)/gu;
const CAMEL_RE = /[a-z][A-Z]|[A-Z][A-Z][a-z]/;

/** Whether a string is pure ASCII. */
function isAscii(s: string): boolean {
	for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
	return true;
}

/** Split camelCase: before an upper-case letter that follows a lower-case letter or digit, and inside `HTMLParser` → `HTML|Parser`. */
function splitCamel(word: string): string[] {
	const out: string[] = [];
	let start = 0;
	for (let i = 1; i < word.length; i++) {
		const prev = word[i - 1]!;
		const cur = word[i]!;
		const next = i + 1 < word.length ? word[i + 1]! : '';
		const upper = cur >= 'A' && cur <= 'Z';
		if (!upper) continue;
		const afterLower = (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9');
		const acronymEnd = prev >= 'A' && prev <= 'Z' && next >= 'a' && next <= 'z';
		if (afterLower || acronymEnd) {
			out.push(word.slice(start, i));
			start = i;
		}
	}
	out.push(word.slice(start));
	return out;
}

let segmenter: Intl.Segmenter | null = null;
function wordSegmenter(): Intl.Segmenter {
	segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
	return segmenter;
}

/** NFKC normalisation (full-width forms, compatibility ideographs, ligatures) of a whole text. */
export function normalizeText(text: string): string {
	return text.normalize('NFKC');
}

/** Case-fold one word and strip diacritics from Latin and Greek letters (`Café` → `cafe`, `ß` → `ss`). */
export function foldWord(word: string): string {
	const lower = word.toLowerCase();
	if (isAscii(lower) || !NEEDS_FOLD_RE.test(lower)) return lower;
	return lower.replace(/ß/g, 'ss').replace(/ς/g, 'σ').normalize('NFD').replace(COMBINING_RE, '').normalize('NFC');
}

/** A Latin or Greek letter that folding changes, with any marks after it. */
const FOLD_RUN_RE = /[\u00c0-\u024f\u0370-\u03ff\u1e00-\u1fff\u00df\u03c2]\p{Mn}*/gu;
const FOLDED_RUNS_MAX = 4096; // why: a few hundred accented letters cover Latin and Greek scripts; the bound only guards odd texts.
const foldedRuns = new Map<string, string>();

/**
 * Case-fold a whole text and strip the diacritics of its Latin and Greek letters, letter by
 * letter as {@link foldWord} folds them (`Café Straße` → `cafe strasse`). Unlike foldWord over the
 * whole text it leaves the marks of other scripts alone (a text-wide NFD would strip Japanese
 * dakuten and Devanagari vowel signs as soon as one accented Latin letter is present), and it
 * needs no decomposition pass over the text.
 */
export function foldText(text: string): string {
	const lower = text.toLowerCase();
	if (!NEEDS_FOLD_RE.test(lower)) return lower;
	return lower.replace(FOLD_RUN_RE, (run) => {
		let folded = foldedRuns.get(run);
		if (folded === undefined) {
			folded = foldWord(run);
			if (foldedRuns.size < FOLDED_RUNS_MAX) foldedRuns.set(run, folded);
		}
		return folded;
	});
}

/** The index term of one folded simple word, or null for stop words and over-long tokens. */
export function simpleTerm(folded: string): string | null {
	if (folded.length === 0 || folded.length > MAX_TOKEN_LENGTH) return null;
	if (isAscii(folded)) {
		if (ENGLISH_STOP_WORDS.has(folded)) return null;
		return /^[a-z]+$/.test(folded) ? stem(folded) : folded;
	}
	return folded;
}

function isHiragana(code: number): boolean {
	return code >= 0x3040 && code <= 0x309f;
}

/**
 * Index terms of a Han/kana run: overlapping bigrams, except bigrams straddling a hiragana
 * boundary (`クを`, `を作` are particles glued to words, pure noise); a character left without
 * any bigram (a lone kanji between kana, a one-character run) becomes a unigram.
 */
export function cjkTerms(run: string, emit: (term: string) => void): void {
	const n = run.length;
	if (charLength(run, 0) === n) {
		emit(run);
		return;
	}
	let prevCovered = false;
	for (let i = 0, len = charLength(run, 0); i < n;) {
		const next = i + len;
		let covered = prevCovered;
		prevCovered = false;
		const hiragana = isHiragana(run.codePointAt(i) ?? 0);
		let nextLen = 0;
		if (next < n) {
			nextLen = charLength(run, next);
			if (hiragana === isHiragana(run.codePointAt(next) ?? 0)) {
				emit(run.slice(i, next + nextLen));
				covered = true;
				prevCovered = true;
			}
		}
		if (!covered && !hiragana) emit(run.slice(i, next));
		i = next;
		len = nextLen;
	}
}

/** The length in UTF-16 units of the code point at `i`: 2 for a surrogate pair, else 1 (as string iteration splits). */
function charLength(text: string, i: number): number {
	const c = text.charCodeAt(i);
	if (c < 0xd800 || c > 0xdbff) return 1;
	const d = text.charCodeAt(i + 1);
	return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

/** Index terms of a Hangul word: the word itself and, from three syllables on, its bigrams (particles attach to words). */
function hangulTerms(run: string, emit: (term: string) => void): void {
	if (run.length <= MAX_TOKEN_LENGTH) emit(run);
	if (run.length < 3) return;
	for (let i = 0; i + 1 < run.length; i++) emit(run.slice(i, i + 2));
}

/** Words of a Thai/Lao/Khmer/Myanmar run through `emit`, by the ICU dictionary behind `Intl.Segmenter`. */
function segmentWords(run: string, emit: (word: string) => void): void {
	for (const s of segmentBounded(wordSegmenter(), run))
		if (s.isWordLike !== false && s.segment.trim() !== '') emit(s.segment);
}

/** The parts of a compound word (`front-end`, `snake_case`, `camelCase`), or null when it is simple. */
export function compoundParts(word: string): string[] | null {
	let parts: string[] | null = null;
	if (word.includes('-') || word.includes('_')) parts = word.split(/[-_]+/).filter((p) => p !== '');
	if (CAMEL_RE.test(word)) parts = (parts ?? [word]).flatMap(splitCamel);
	return parts && parts.length > 1 ? parts : null;
}

/** Emit the index terms of one non-special (Latin, Cyrillic, Greek, Arabic, Devanagari…) word. */
function plainWordTerms(word: string, emit: (term: string) => void): void {
	const parts = compoundParts(word);
	if (!parts) {
		const t = simpleTerm(foldWord(word));
		if (t !== null) emit(t);
		return;
	}
	for (const p of parts) {
		const t = simpleTerm(foldWord(p));
		if (t !== null) emit(t);
	}
	if (parts.length <= MAX_COMPOUND_PARTS) {
		const joined = simpleTerm(foldWord(parts.join('')));
		if (joined !== null) emit(joined);
	}
}

/** Emit the terms of a word that contains CJK or South-East Asian letters, run by run. */
function specialWordTerms(word: string, emit: (term: string) => void): void {
	SPLIT_SPECIAL_RE.lastIndex = 0;
	let m: RegExpExecArray | null;
	while ((m = SPLIT_SPECIAL_RE.exec(word)) !== null) {
		if (m[1] !== undefined) cjkTerms(m[1], emit);
		else if (m[2] !== undefined) hangulTerms(m[2], emit);
		else if (m[3] !== undefined) segmentWords(m[3], emit);
		else if (m[4] !== undefined) {
			const rest = m[4].replace(/^[-_]+|[-_]+$/g, '');
			if (rest !== '') plainWordTerms(rest, emit);
		}
	}
}

/** Emit the index terms of one word-regex match (a pure function of the word: cacheable). */
export function wordTerms(word: string, emit: (term: string) => void): void {
	if (word.charCodeAt(0) < 0x80 && isAscii(word)) plainWordTerms(word, emit);
	else if (SPECIAL_RE.test(word)) specialWordTerms(word, emit);
	else plainWordTerms(word, emit);
}

/**
 * Every index term of `text`, in order, through `emit` (no arrays: this runs over whole vaults).
 * The text should already be NFKC-normalised (`normalizeText`).
 */
export function tokenizeForIndex(text: string, emit: (term: string) => void): void {
	forEachWord(text, (word) => wordTerms(word, emit));
}

/** The index terms of a text as an array (convenience for short strings: titles, aliases, queries). */
export function termsOf(text: string): string[] {
	const out: string[] = [];
	tokenizeForIndex(normalizeText(text), (t) => out.push(t));
	return out;
}

/**
 * One word of a query as the user meant it, with the index terms that realise it. `alts` are
 * alternatives (any may match); each alternative is a conjunction of index terms (the bigrams of
 * a CJK word, the parts of a compound) — a document matches the word when it holds them all.
 */
export interface QueryWord {
	/** The word as typed (normalised), for reports. */
	text: string;
	/** Alternatives, each a list of index terms that must co-occur. */
	alts: string[][];
}

function termList(fn: (emit: (t: string) => void) => void): string[] {
	const out: string[] = [];
	fn((t) => {
		if (!out.includes(t)) out.push(t);
	});
	return out;
}

/**
 * Query words of a CJK run: Segmenter words with stop words dropped. The dictionary splits
 * unknown words into single characters (`链|接`), so runs of single characters are merged, and
 * a lone character is glued to the word before it (`快捷|键` → `快捷键`) or after it.
 */
/** Question frames around a CJK query (zh and ja): they ask, they are not what is asked about. */
const CJK_FRAME_START = [
	'请问',
	'請問',
	'什么是',
	'什麼是',
	'什么叫',
	'什麼叫',
	'为什么',
	'為什麼',
	'怎么样',
	'怎麼樣',
	'怎么',
	'怎麼',
	'怎样',
	'怎樣',
	'如何',
	'哪里',
	'哪裡',
	'どうやって',
	'どうして',
	'なぜ',
];
const CJK_FRAME_END = [
	'是什么意思',
	'是什麼意思',
	'是什么',
	'是什麼',
	'有哪些',
	'怎么用',
	'怎麼用',
	'吗',
	'嗎',
	'呢',
	'とは何ですか',
	'とは何',
	'って何',
	'は何ですか',
	'とは',
	'ですか',
	'ますか',
	'する方法',
	'の方法',
	'のやり方',
	'には',
	'か',
];

/**
 * The run without its question frame (什么是…, …是什么, …吗, …とは何ですか, …する方法), so no
 * bigram crosses from a function word into the topic (`什么是块引用` → `块引用`, never `是块`).
 * A run that is only a frame is kept.
 */
export function withoutQuestionFrame(run: string): string {
	let s = run;
	for (let changed = true; changed;) {
		changed = false;
		for (const f of CJK_FRAME_START) {
			if (s.length > f.length && s.startsWith(f)) {
				s = s.slice(f.length);
				changed = true;
			}
		}
		for (const f of CJK_FRAME_END) {
			if (s.length > f.length && s.endsWith(f)) {
				s = s.slice(0, -f.length);
				changed = true;
			}
		}
	}
	return s;
}

/** One hiragana character: an inflection ending or particle left by the segmenter (したい → い), never a topic. */
const HIRAGANA_FRAGMENT = /^\p{sc=Hiragana}$/u;

function cjkQueryWords(run: string, out: QueryWord[]): void {
	const groups: string[][] = [[]];
	for (const s of segmentBounded(wordSegmenter(), withoutQuestionFrame(run))) {
		if (CJK_STOP_WORDS.has(s.segment) || HIRAGANA_FRAGMENT.test(s.segment)) groups.push([]);
		else groups[groups.length - 1]!.push(s.segment);
	}
	for (const group of groups) {
		const words: string[] = [];
		let pending = '';
		for (let i = 0; i < group.length;) {
			if ([...group[i]!].length > 1) {
				words.push(pending + group[i]);
				pending = '';
				i++;
				continue;
			}
			let j = i;
			while (j < group.length && [...group[j]!].length === 1) j++;
			const singles = group.slice(i, j).join('');
			if (j - i > 1) words.push(singles);
			else if (words.length > 0) words[words.length - 1] += singles;
			else pending = singles;
			i = j;
		}
		if (pending !== '') words.push(pending);
		for (const w of words) {
			const terms = termList((emit) => cjkTerms(w, emit));
			if (terms.length > 0) out.push({ text: w, alts: [terms] });
		}
	}
}

/**
 * Analyse the free text of a query into words. Stop words disappear (unless the query has
 * nothing else), compounds get their joined form and their parts as alternatives.
 */
export function analyzeQueryText(text: string): QueryWord[] {
	const out: QueryWord[] = [];
	const norm = normalizeText(text);
	const matches: string[] = [];
	forEachWord(norm, (w) => matches.push(w));
	for (const word of matches) {
		if (SPECIAL_RE.test(word)) {
			SPLIT_SPECIAL_RE.lastIndex = 0;
			for (const m of word.matchAll(SPLIT_SPECIAL_RE)) {
				if (m[1] !== undefined) cjkQueryWords(m[1], out);
				else if (m[2] !== undefined) {
					const terms = termList((emit) => hangulTerms(m[2]!, emit));
					out.push({ text: m[2], alts: terms.length > 1 ? [[m[2]], terms.slice(1)] : [terms] });
				} else if (m[3] !== undefined) segmentWords(m[3], (w) => out.push({ text: w, alts: [[w]] }));
				else if (m[4] !== undefined) plainQueryWord(m[4].replace(/^[-_]+|[-_]+$/g, ''), out);
			}
		} else plainQueryWord(word, out);
	}
	if (out.length === 0 && matches.length > 0) {
		// All stop words ("how to", "the who"): search them literally rather than nothing.
		for (const w of matches) {
			const f = foldWord(w);
			if (f.length <= MAX_TOKEN_LENGTH)
				out.push({ text: f, alts: [[isAscii(f) && /^[a-z]+$/.test(f) ? stem(f) : f]] });
		}
	}
	return out;
}

function plainQueryWord(word: string, out: QueryWord[]): void {
	if (word === '') return;
	const parts = compoundParts(word);
	const folded = foldWord(word);
	if (!parts) {
		const t = simpleTerm(folded);
		if (t !== null) out.push({ text: folded, alts: [[t]] });
		return;
	}
	const alts: string[][] = [];
	const joined = simpleTerm(foldWord(parts.join('')));
	if (joined !== null) alts.push([joined]);
	const partTerms = parts.map((p) => simpleTerm(foldWord(p))).filter((t): t is string => t !== null);
	if (partTerms.length > 0 && !(partTerms.length === 1 && partTerms[0] === joined)) alts.push(partTerms);
	if (alts.length > 0) out.push({ text: folded, alts });
}

/** True when the text contains letters that need the CJK/South-East-Asian path (for reports and tests). */
export function hasSpecialScript(text: string): boolean {
	return SPECIAL_RE.test(text);
}
