/**
 * Query expansion without a model: (a) a user synonym note, (b) note aliases — a query span
 * equal to a note's alias or title brings in its title and other aliases, (c) the controlled
 * tag vocabulary. Expansions are kept apart from the words typed and weighted lower.
 */
import { analyzeQueryText, foldWord, normalizeText, termsOf, type QueryWord } from './tokenize';

/** Where an expansion came from. */
export type ExpansionSource = 'synonym' | 'alias' | 'vocabulary';

/** One generated search word. */
export interface Expansion {
	/** The word as the synonym line, alias or tag spells it. */
	text: string;
	/** Its analysis, ready to score. */
	words: QueryWord[];
	/** Index of the typed word it expands, or -1 when it expands the whole query. */
	from: number;
	source: ExpansionSource;
}

const MAX_EXPANSIONS = 16; // why: beyond ~16 generated words the lower-weighted tail only adds noise and latency.
const MAX_SPAN = 4; // why: aliases and synonym heads longer than four query words are vanishingly rare.
const MAX_ALIAS_NOTES = 3; // why: a span naming more than 3 notes is a common word, not a name worth expanding.

/**
 * The matching key of a short text: NFKC, case and diacritics folded, everything but letters
 * and digits removed — `Front-End`, `frontend` and `front end` share a key, as do `快捷键 设置`
 * and `快捷键设置`.
 */
export function canonicalKey(text: string): string {
	return foldWord(normalizeText(text)).replace(/[^\p{L}\p{N}\p{M}]+/gu, '');
}

/** A leading numbering or bracketed label of a note name: `01 `, `1.2 `, `03-`, `[Book] `, `(Draft) `, with symbols before it. */
const NAME_PREFIX = /^[^\p{L}\p{N}[(]*(?:\d+(?:[.\-_]\d+)*[.)\-_]?\s+|\d+[.)\-_]\s*|\[[^\]]*\]\s*|\([^)]*\)\s*)/u;

/**
 * A note name without its numbering or label prefix (`01 Intro` → `Intro`, `[Book] Deep Work` →
 * `Deep Work`), or null when it has none or nothing would be left: such prefixes order or file
 * notes, the rest is the name people type.
 */
export function namePrefixStripped(name: string): string | null {
	const m = NAME_PREFIX.exec(name);
	if (!m) return null;
	const rest = name.slice(m[0].length).trim();
	return /[\p{L}\p{N}]/u.test(rest) ? rest : null;
}

/** Synonym groups parsed from a synonym note: lines `head: a, b, c` (list markers allowed). */
export class SynonymTable {
	private readonly byKey = new Map<string, number[]>();

	/** `groups`: each a list of interchangeable words. */
	constructor(readonly groups: readonly string[][]) {
		groups.forEach((g, i) => {
			for (const w of g) {
				const k = canonicalKey(w);
				if (k === '') continue;
				const list = this.byKey.get(k) ?? [];
				if (!list.includes(i)) list.push(i);
				this.byKey.set(k, list);
			}
		});
	}

	/** Parse a synonym note. Frontmatter, headings and lines without `:` are ignored. */
	static parse(text: string): SynonymTable {
		const groups: string[][] = [];
		let body = text;
		if (body.startsWith('---')) {
			const end = body.indexOf('\n---', 3);
			if (end > 0) body = body.slice(end + 4);
		}
		for (const raw of body.split('\n')) {
			const line = raw.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '').trim();
			if (line === '' || line.startsWith('#')) continue;
			const colon = line.search(/[:：]/);
			if (colon <= 0) continue;
			const head = line.slice(0, colon).trim();
			const rest = line
				.slice(colon + 1)
				.split(/[,，、]/)
				.map((s) => s.trim())
				.filter((s) => s !== '');
			if (rest.length > 0) groups.push([head, ...rest]);
		}
		return new SynonymTable(groups);
	}

	/** Words sharing a group with the key's text (the key itself excluded). */
	lookup(key: string): string[] {
		const out: string[] = [];
		for (const gi of this.byKey.get(key) ?? [])
			for (const w of this.groups[gi]!) if (canonicalKey(w) !== key && !out.includes(w)) out.push(w);
		return out;
	}
}

/** Controlled tag vocabulary: a tag's own spelling, its stem, and its labels all map to the tag. */
export class Vocabulary {
	private readonly byKey = new Map<string, string>();
	private readonly byTerm = new Map<string, string>();

	/** `vocabulary`: tag → words that map to it. */
	constructor(vocabulary: Record<string, string[]>) {
		for (const [tag, labels] of Object.entries(vocabulary)) {
			this.byKey.set(canonicalKey(tag), tag);
			for (const l of labels) this.byKey.set(canonicalKey(l), tag);
			const terms = termsOf(tag);
			// A one-word tag also matches by stem (`secure` → security); compounds only by their joined form.
			if (terms.length === 1) this.byTerm.set(terms[0]!, tag);
		}
	}

	/** The tag a query span maps to, or null. */
	lookup(key: string, word: QueryWord | null): string | null {
		const hit = this.byKey.get(key);
		if (hit !== undefined) return hit;
		if (word && word.alts.length === 1 && word.alts[0]!.length === 1)
			return this.byTerm.get(word.alts[0]![0]!) ?? null;
		return null;
	}
}

/** What expansion needs from the index: notes whose alias or title has a given key. */
export interface AliasLookup {
	/** Titles and aliases of the notes one of whose titles/aliases has this key (at most a few notes). */
	namesFor(key: string): { title: string; aliases: string[] }[] | null;
}

/** Spans of up to four consecutive typed words, as name keys, with the typed words they cover. */
export function querySpans(words: readonly QueryWord[]): { key: string; from: number; count: number }[] {
	const out: { key: string; from: number; count: number }[] = [];
	for (let n = Math.min(MAX_SPAN, words.length); n >= 1; n--) {
		for (let i = 0; i + n <= words.length; i++) {
			const key = canonicalKey(
				words
					.slice(i, i + n)
					.map((w) => w.text)
					.join(''),
			);
			if (key !== '' && !out.some((s) => s.key === key)) out.push({ key, from: i, count: n });
		}
	}
	return out;
}

/**
 * Generate expansions for the typed words. Spans of up to four consecutive words (and the
 * whole free text) are looked up in the synonym table, the alias map and the vocabulary.
 */
export function expandQuery(
	words: readonly QueryWord[],
	freeText: string,
	ctx: { synonyms: SynonymTable | null; aliases: AliasLookup | null; vocabulary: Vocabulary | null },
): Expansion[] {
	const out: Expansion[] = [];
	const seen = new Set<string>(words.map((w) => canonicalKey(w.text)));
	const add = (text: string, from: number, source: ExpansionSource): void => {
		if (out.length >= MAX_EXPANSIONS) return;
		const key = canonicalKey(text);
		if (key === '' || seen.has(key)) return;
		const analysed = analyzeQueryText(text);
		if (analysed.length === 0) return;
		seen.add(key);
		out.push({ text, words: analysed, from, source });
	};
	const spans: { key: string; from: number; word: QueryWord | null }[] = [];
	const whole = canonicalKey(freeText);
	if (whole !== '')
		spans.push({ key: whole, from: words.length === 1 ? 0 : -1, word: words.length === 1 ? words[0]! : null });
	for (const span of querySpans(words))
		if (span.key !== whole)
			spans.push({ key: span.key, from: span.from, word: span.count === 1 ? words[span.from]! : null });
	for (const s of spans) for (const w of ctx.synonyms?.lookup(s.key) ?? []) add(w, s.from, 'synonym');
	// An alias points the query at its own note: the note's title joins the query (so 快捷键 reaches
	// Hotkeys), never the note's other aliases — "public" must not bring in "private".
	for (const s of spans) {
		const notes = ctx.aliases?.namesFor(s.key);
		if (!notes || notes.length > MAX_ALIAS_NOTES) continue;
		for (const n of notes) add(n.title, s.from, 'alias');
	}
	for (const s of spans) {
		const tag = ctx.vocabulary?.lookup(s.key, s.word);
		if (tag) add(tag, s.from, 'vocabulary');
	}
	return out;
}

/** A multi-word expansion as one word whose every term must be present (each word's first alternative): a title stays a phrase. */
export function phraseWord(e: Expansion): QueryWord {
	const terms: string[] = [];
	for (const w of e.words) for (const t of w.alts[0] ?? []) if (!terms.includes(t)) terms.push(t);
	return { text: e.text, alts: [terms] };
}
