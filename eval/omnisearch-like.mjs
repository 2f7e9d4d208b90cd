// MiniSearch configured the way Omnisearch (scambier/obsidian-omnisearch) configures it, as the
// baseline for npm run eval and the search bench: fields basename, aliases, content, headings1-3;
// Omnisearch's tokenizer (split on spaces and punctuation, plus hyphen and camelCase parts, plus
// words split on brackets and spaces); lower-case and diacritics removed; prefix search and
// fuzziness 0.1 (its default "1") scaled by term length; boosts basename 3, aliases 3, H1 1.5,
// H2 1.3, H3 1.1 (its defaults); a query is an OR of AND-groups, as tokenizeForSearch builds it.
// Without its optional Chinese segmenter plugin, a run of CJK text is one token, as in Omnisearch.
import MiniSearch from 'minisearch';

const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
const BRACKETS_AND_SPACE = /[|[\](){}<> \t\n\r]/u;

function removeDiacritics(s) {
	return s.normalize('NFD').replace(/\p{Diacritic}/gu, '');
}
function splitHyphens(s) {
	return s.includes('-') ? s.split('-').filter(Boolean) : [];
}
function splitCamelCase(s) {
	return /[a-z][A-Z]/.test(s)
		? s
				.replace(/([a-z](?=[A-Z]))/g, '$1 ')
				.split(' ')
				.filter(Boolean)
		: [];
}

function tokenizeForIndexing(text) {
	const words = text.split(BRACKETS_AND_SPACE);
	const tokens = text.split(SPACE_OR_PUNCTUATION);
	return [...new Set([...tokens.flatMap((t) => [t, ...splitHyphens(t), ...splitCamelCase(t)]), ...words])].filter(
		Boolean,
	);
}

function tokenizeForSearch(text) {
	const tokens = text.split(SPACE_OR_PUNCTUATION).filter(Boolean);
	return {
		combineWith: 'OR',
		queries: [
			{ combineWith: 'AND', queries: tokens },
			{ combineWith: 'AND', queries: text.split(BRACKETS_AND_SPACE).filter(Boolean) },
			{ combineWith: 'AND', queries: tokens.flatMap(splitHyphens) },
			{ combineWith: 'AND', queries: tokens.flatMap(splitCamelCase) },
		].filter((q) => q.queries.length > 0),
	};
}

const FUZZINESS = 0.1;

const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const segmenters = {
	zh: new Intl.Segmenter('zh', { granularity: 'word' }),
	ja: new Intl.Segmenter('ja', { granularity: 'word' }),
};

/** CJK runs of the tokens split into dictionary words by Intl.Segmenter (as Omnisearch's Chinese add-on splits them); other tokens as they are. */
function cjkWords(tokens) {
	return tokens.flatMap((t) => {
		if (!CJK.test(t)) return [t];
		const seg = /[\p{sc=Hiragana}\p{sc=Katakana}]/u.test(t) ? segmenters.ja : segmenters.zh;
		return [...seg.segment(t)].filter((s) => s.isWordLike).map((s) => s.segment);
	});
}

/**
 * A MiniSearch instance with Omnisearch's options; `cjk: true` adds the CJK word tokenizer,
 * `directory: true` its field for the note's folder (boost 2, its default weight), which the
 * first-contact bench indexes and the eval leaves out.
 */
export function createOmnisearchLike({ cjk = false, directory = false } = {}) {
	return new MiniSearch({
		idField: 'path',
		fields: [
			'basename',
			...(directory ? ['directory'] : []),
			'aliases',
			'content',
			'headings1',
			'headings2',
			'headings3',
		],
		storeFields: [],
		tokenize: cjk ? (text) => [...new Set(cjkWords(tokenizeForIndexing(text)))] : tokenizeForIndexing,
		processTerm: (term) => removeDiacritics(term).toLowerCase(),
	});
}

/** The document Omnisearch indexes for a note. */
export function omnisearchDoc(path, text, metadata) {
	const slash = path.lastIndexOf('/');
	const basename = path.slice(slash + 1).replace(/\.md$/i, '');
	const fm = metadata?.frontmatter ?? {};
	const rawAliases = fm.aliases ?? fm.alias ?? [];
	const aliases = (Array.isArray(rawAliases) ? rawAliases : String(rawAliases).split(',')).map(String).join(' ');
	const level = (n) =>
		(metadata?.headings ?? [])
			.filter((h) => h.level === n)
			.map((h) => h.heading)
			.join(' ');
	return {
		path,
		basename,
		directory: path.slice(0, Math.max(0, slash)),
		aliases,
		content: text,
		headings1: level(1),
		headings2: level(2),
		headings3: level(3),
	};
}

/** Search like Omnisearch; returns paths, best first. `cjk: true` splits CJK query runs into words, as the index was; `directory: true` boosts the folder field. */
export function omnisearchQuery(ms, query, limit = 10, { cjk = false, directory = false } = {}) {
	const groups = tokenizeForSearch(query);
	if (cjk) for (const g of groups.queries) g.queries = cjkWords(g.queries);
	const results = ms.search(groups, {
		prefix: (term) => term.length >= 1,
		fuzzy: (term) => (term.length <= 3 ? 0 : term.length <= 5 ? FUZZINESS / 2 : FUZZINESS),
		boost: {
			basename: 3,
			...(directory ? { directory: 2 } : {}),
			aliases: 3,
			headings1: 1.5,
			headings2: 1.3,
			headings3: 1.1,
		},
		tokenize: (t) => [t],
	});
	return results.slice(0, limit).map((r) => r.id);
}
