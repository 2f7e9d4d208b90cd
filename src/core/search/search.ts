/**
 * Ranked search (seed 003, vault-search) without an LLM: `SearchIndex` keeps an inverted index
 * of a vault current; `search(index, query, options)` parses the mixed query, expands it,
 * filters, ranks with field-weighted BM25 and explains every hit with the seed's tiers.
 *
 * `search()` runs in named phases: check the query, analyse its words, rank candidates, verify
 * phrases/regexes on the text, explain and re-rank the head, then build the hits.
 *
 * @example
 * ```ts
 * const index = await SearchIndex.build(source, {}, { onProgress: (done, total) => notice(done, total) });
 * const result = await search(index, 'tag:#security [status:open] xss 攻擊', { limit: 10 });
 * console.log(renderSearchMarkdown(result));
 * ```
 */
import { dateFieldsOf, noteDate } from '../note-date';
import { markFailed } from '../failure';
import { boundEchoes } from '../frontmatter-echo';
import { displayTags, excerptOf, hasWordsToRead } from '../note-info';
import type { NoteSource } from '../port';
import { describeNoteRef, findNote } from '../note-ref';
import { noResultsAdvice } from './advice';
import { expandQuery, phraseWord, type Expansion } from './expansion';
import { excerptFrom, needlesOf } from './excerpt';
import { correctWord, wordMatches } from './fuzzy';
import { abstractOf, forwardLinksOf } from './extract';
import { buildMask, folderPrefixes, phraseCandidates, textCandidates } from './filters';
import type { TrigramIndex } from '../text/trigram';
import { phraseMatcher } from '../text/phrase';
import { keywordBonus, mergeBonus, nameBonus } from './keyword-bonus';
import { describeQuery, nothingToMatch, parseQuery, regexClauseMatcher, type ParsedQuery } from './query-parser';
import {
	matchedWords,
	strongTypedMatch,
	tierOf,
	TIER_POINTS,
	type Candidate,
	type ScoredWord,
	type Tier,
} from './rank';
import type { BuildOptionsOf } from './build-options';
import type { SearchIndex } from './search-index';
import { drain, type TimeSlice } from '../steps';
import { analyzeQueryText, foldWord, hasSpecialScript, type QueryWord } from './tokenize';
import type { SearchHit, SearchOptions, SearchResult } from './types';

/** Re-exported so faces import ranked search from this one module. */
export type { NoteInput } from './inverted-index';
export type { Tier } from './rank';
export type { SearchSettings } from './settings';
export type { ExpandedTerm, SearchHit, SearchOptions, SearchResult } from './types';
export { DEFAULT_SEARCH_SETTINGS, DEFAULT_TAG_VOCABULARY, resolveSearchSettings } from './settings';
export { parseQuery, type ParsedQuery } from './query-parser';
export { renderSearchMarkdown } from './render';
/** What `SearchIndex.build` is given (build-options.ts). */
export type BuildOptions = BuildOptionsOf<SearchIndex>;
export { SearchIndex } from './search-index';

const RERANK_FACTOR = 3; // why: synthesis boosts and keyword tiers reorder the head; 3× the limit leaves room to promote.
const VERIFY_CAP = 2000; // why: phrase/regex verification reads texts; beyond 2000 candidates the query is too broad to verify.
const MAX_TYPED_WORDS = 30; // why: matches the coverage bitmask width in rank.ts.
const PREFIX_MIN = 4; // why: shorter prefixes complete to hundreds of unrelated words.
const PREFIX_TERMS = 6; // why: the most frequent completions carry the inflections; the tail is noise.

function baseResult(index: SearchIndex, parsed: ParsedQuery | null, raw: string): SearchResult {
	return {
		status: 'success',
		query: parsed ? { raw, ...describeQuery(parsed) } : { raw },
		searched: { files: index.size, folders: [] },
		matched: 0,
		results: [],
		skipped: [...index.skipped],
		limitations: [],
		terms: { typed: [], expanded: [], corrected: [], unmatched: [] },
		keyword_index: index.keywordIndexStatus,
		index_matches: 0,
		grep_matches: 0,
		advice: [],
	};
}

/**
 * The prefix to complete for a typed word, or null: single-term words of alphabetic scripts
 * other than English (which has its stemmer), 8+ letters losing their last three (a crude
 * suffix strip for inflected languages); any word when it is being typed.
 */
function prefixOf(w: QueryWord, typing: boolean): string | null {
	if (w.alts.length !== 1 || w.alts[0]!.length !== 1) return null;
	const t = w.alts[0]![0]!;
	if (t.length < PREFIX_MIN || /[^\p{L}\p{M}]/u.test(t) || hasSpecialScript(t)) return null;
	if (typing) return w.text.length >= PREFIX_MIN ? foldWord(w.text) : null;
	if (/^[a-z]+$/.test(t)) return null;
	return t.length >= 8 ? t.slice(0, t.length - 3) : t;
}

/** The query's words: as typed, generated (synonyms, aliases, tags) and prefix completions, each weighted. */
interface QueryWords {
	typed: QueryWord[];
	/** Typed words that matched nothing, taken as a near index term. */
	corrected: { from: string; to: string }[];
	/** Typed words that matched nothing, uncorrected. */
	unmatched: string[];
	expansions: Expansion[];
	scored: ScoredWord[];
}

/** A candidate after explanation: its matches, tier and final score. */
interface Explained {
	c: Candidate;
	matches: ReturnType<typeof matchedWords>;
	tier: Tier;
	term: string | null;
	score: number;
	synthesis: boolean;
}

/**
 * Phase 1: why the query cannot run (parse error, nothing to search, a `backlinks:` note that
 * is unknown — with near names — or ambiguous — with its candidates), or null. Notes are named
 * through the engine's one resolver (note-ref.ts), as the backlinks query names them: an empty
 * list would read as "nothing links there", a union of namesakes as links that are not there.
 */
function queryProblem(
	parsed: ParsedQuery,
	source: NoteSource | null,
): { error: string; suggestions?: string[] } | null {
	if (parsed.error !== null) return { error: parsed.error };
	if (parsed.raw === '')
		return { error: 'query: empty — type words, "a phrase", tag:#x, path:x, [key:value] or /regex/' };
	if (nothingToMatch(parsed))
		return {
			error: `query: nothing to match in "${parsed.raw}" — type words, "a phrase", tag:#x, path:x, [key:value] or /regex/`,
		};
	if (!source) return null;
	for (const f of parsed.filters) {
		if (f.kind !== 'backlinks') continue;
		const ref = findNote(source, f.target);
		if (ref.kind === 'found') continue;
		const error = describeNoteRef(ref, `backlinks:${f.target}`);
		if (ref.kind === 'ambiguous') return { error, suggestions: ref.candidates };
		return ref.suggestions.length > 0 ? { error, suggestions: ref.suggestions } : { error };
	}
	return null;
}

/** Phase 2: analyse the free text into typed words, expansions and prefix completions. */
function analyzeWords(
	si: SearchIndex,
	parsed: ParsedQuery,
	typingAt: (typed: readonly QueryWord[]) => number,
): QueryWords {
	const analysed = analyzeQueryText(parsed.text).slice(0, MAX_TYPED_WORDS);
	const typing = typingAt(analysed);
	// Words that match no note: a near index term (a typo), else reported as matching nothing.
	const corrected: { from: string; to: string }[] = [];
	const unmatched: string[] = [];
	const typed = analysed.map((w, i): QueryWord => {
		if (wordMatches(si.index, w)) return w;
		const to = i === typing || hasSpecialScript(w.text) ? null : correctWord(si.index, w);
		if (to === null) {
			unmatched.push(w.text);
			return w;
		}
		corrected.push({ from: w.text, to });
		return { text: to, alts: [[to]] };
	});
	const expansions = expandQuery(typed, parsed.text, {
		synonyms: si.synonyms,
		aliases: si.aliasLookup(),
		vocabulary: si.vocabulary,
	});
	const scored: ScoredWord[] = typed.map((w, i) => ({
		word: w,
		weight: 1,
		origin: i,
		expansion: false,
		label: w.text,
		idf: si.wordIdf(w),
	}));
	const typedTerms = new Set(typed.flatMap((w) => w.alts.flat()));
	for (const e of expansions) {
		const of = e.from >= 0 ? typed[e.from]!.text : parsed.text;
		// A title, alias or synonym of several spaced words that brings in words not typed stays one
		// phrase: a note matches it only with all its words (a CJK name written without spaces keeps
		// its segments' own weights; a name of typed words only adds no word to count notes by).
		const phrase =
			e.words.length > 1 &&
			/\s/.test(e.text.trim()) &&
			e.words.some((w) => !(w.alts[0] ?? []).every((t) => typedTerms.has(t)));
		const words = phrase ? [phraseWord(e)] : e.words;
		const weight = phrase ? si.settings.expansionWeight : si.settings.expansionWeight / Math.sqrt(e.words.length);
		for (const w of words)
			scored.push({
				word: w,
				weight,
				origin: e.from,
				expansion: true,
				phrase,
				label: `${e.text} (${e.source} of ${of})`,
				idf: si.wordIdf(w),
			});
	}
	// Prefix completions: inflected forms in languages without a stemmer (восстановить → восстановление)
	// and a word still being typed. One alternative-word per typed word, weighted as an expansion.
	typed.forEach((w, i) => {
		const prefix = si.settings.prefixWeight > 0 ? prefixOf(w, i === typing) : null;
		if (prefix === null) return;
		const terms = si.index.termsWithPrefix(prefix, PREFIX_TERMS);
		if (terms.length > 0)
			scored.push({
				word: { text: `${prefix}…`, alts: terms.map((t) => [t]) },
				weight: si.settings.prefixWeight,
				origin: i,
				expansion: true,
				label: `${prefix}… (prefix of ${w.text})`,
				idf: 0,
			});
	});
	return { typed, corrected, unmatched, expansions, scored };
}

/** Whether phrases, regexes or multi-word exclusions must be checked on the note text. */
function needsText(parsed: ParsedQuery): boolean {
	return (
		parsed.phrases.length > 0 ||
		parsed.regexes.length > 0 ||
		parsed.excluded.some((e) => analyzeQueryText(e).length !== 1)
	);
}

/**
 * Phase 3: the ranked candidates (or, with no words, every allowed note by path) and how many
 * matched. The ranking runs as steps: in the host's slices when it gives some, else in one go.
 */
async function rankCandidates(
	si: SearchIndex,
	words: QueryWords,
	allowed: Uint8Array | null,
	bonus: ReturnType<typeof keywordBonus>,
	topK: number,
	slice: TimeSlice | undefined,
): Promise<{ candidates: Candidate[]; total: number }> {
	const { scored, typed } = words;
	if (scored.length > 0 || bonus.size > 0) {
		const typedIdf = scored.slice(0, typed.length).map((w) => Math.max(0.1, w.idf));
		const steps = si.scorer.rankSteps({ words: scored, typedIdf, allowed, bonus, topK });
		const { top, total } = slice ? await slice.run(steps) : drain(steps);
		return { candidates: top, total };
	}
	const candidates: Candidate[] = [];
	for (let d = 0; d < si.index.idSpace; d++) {
		if (si.index.isAlive(d) && (allowed === null || allowed[d] === 1))
			candidates.push({ doc: d, score: 0, coverage: 1 });
	}
	candidates.sort((a, b) => (si.index.doc(a.doc)?.path ?? '').localeCompare(si.index.doc(b.doc)?.path ?? ''));
	return { candidates, total: candidates.length };
}

/** Phase 4: keep the candidates whose text holds every phrase and regex and no excluded phrase; their texts are kept for excerpts. */
async function verifyText(
	si: SearchIndex,
	parsed: ParsedQuery,
	candidates: readonly Candidate[],
	source: NoteSource,
	trigrams?: TrigramIndex | null,
): Promise<{ kept: Candidate[]; texts: Map<number, string> }> {
	const texts = new Map<number, string>();
	const phrases = parsed.phrases.map(phraseMatcher);
	const excludedPhrases = parsed.excluded.filter((e) => analyzeQueryText(e).length !== 1).map(phraseMatcher);
	const regexes = parsed.regexes.flatMap((r) => {
		const compiled = regexClauseMatcher(r.source);
		// The parser refused any clause that does not compile, so the query never gets here with one.
		return compiled.ok ? [{ re: compiled.matcher, negate: r.negate }] : [];
	});
	const possible = phraseCandidates(si, parsed.phrases);
	const canHold = textCandidates(parsed, trigrams);
	const kept: Candidate[] = [];
	for (const c of candidates) {
		const info = si.index.doc(c.doc);
		if (!info || (possible !== null && !possible.has(c.doc)) || (canHold !== null && !canHold(info.path))) continue;
		let text: string;
		try {
			text = await source.read(info.path);
		} catch {
			continue;
		}
		if (!phrases.every((p) => p.test(text))) continue;
		if (excludedPhrases.some((p) => p.test(text))) continue;
		if (!regexes.every((r) => r.re.test(text) !== r.negate)) continue;
		texts.set(c.doc, text);
		kept.push(c);
	}
	return { kept, texts };
}

/** Phase 5: explain the head (matches, tier), apply the synthesis boost and re-sort. */
function explainHead(
	si: SearchIndex,
	candidates: readonly Candidate[],
	words: QueryWords,
	bonus: ReturnType<typeof keywordBonus>,
	limit: number,
): Explained[] {
	const { scored, typed } = words;
	const explained = candidates.slice(0, Math.max(limit * RERANK_FACTOR, limit)).map((c): Explained => {
		const info = si.index.doc(c.doc);
		const matches = scored.length > 0 ? matchedWords(si.index, c.doc, scored) : [];
		let { tier, term } =
			scored.length > 0 || bonus.has(c.doc) ? tierOf(matches) : { tier: 'filter' as Tier, term: null };
		let score = c.score;
		const synthesis = info !== null && info.synthesis && strongTypedMatch(matches);
		if (synthesis) {
			score *= si.settings.synthesisBoost;
			tier = 'synthesis';
		} else if (bonus.has(c.doc)) {
			tier = 'keyword-index';
			term = term ?? typed[0]?.text ?? null;
		}
		return { c, matches, tier, term, score, synthesis };
	});
	explained.sort(
		(a, b) =>
			b.score - a.score || (si.index.doc(a.c.doc)?.path ?? '').localeCompare(si.index.doc(b.c.doc)?.path ?? ''),
	);
	return explained;
}

/** Phase 6: the hits of the head — excerpt, section and line, abstract, tags, links and backlinks. */
async function buildHits(
	si: SearchIndex,
	head: readonly Explained[],
	texts: ReadonlyMap<number, string>,
	source: NoteSource | null,
	options: SearchOptions,
): Promise<SearchHit[]> {
	const { withBacklinks = true, withExcerpts = true, withLinks = true, dateFields, slice } = options;
	const hits: SearchHit[] = [];
	// Links as every other query reports them: body, [[…]] properties and the `links:` field.
	const graph = source && withLinks ? si.linkGraph(source) : null;
	// The linkers of every hit in one pass over the link maps (no inversion of the whole vault's),
	// in the host's slices when it gives some: at 50k notes the pass is the search's longest part.
	const targets = head.flatMap((e) => si.index.doc(e.c.doc)?.path ?? []);
	const linkers =
		graph && withBacklinks
			? slice
				? await slice.run(graph.linkersOfEachSteps(targets))
				: graph.linkersOfEach(targets)
			: new Map<string, readonly string[]>();
	for (const e of head) {
		const info = si.index.doc(e.c.doc);
		if (!info) continue;
		const words = e.matches.map((m) => m.sw);
		const derived = !si.index.keepDerived;
		let text = texts.get(e.c.doc);
		if (withExcerpts && source && text === undefined && (words.length > 0 || derived)) {
			try {
				text = await source.read(info.path);
			} catch {
				text = undefined;
			}
		}
		// Without excerpts or links nothing needs the note's metadata: tags come from the index's record.
		const meta = source && (withExcerpts || withLinks) ? source.getMetadata(info.path) : null;
		const abstract =
			derived && text !== undefined
				? excerptOf(
						abstractOf(text, meta, info.bodyStart, si.settings.abstractHeadings),
						si.settings.excerptChars,
					)
				: info.abstract;
		const found =
			!withExcerpts || text === undefined || words.length === 0
				? null
				: excerptFrom(text, info.bodyStart, needlesOf(words), si.settings.excerptChars);
		const matchedTerms: string[] = [];
		for (const m of e.matches) if (!matchedTerms.includes(m.sw.label)) matchedTerms.push(m.sw.label);
		hits.push({
			path: info.path,
			title: info.title,
			folder: info.folder,
			frontmatter: info.frontmatter,
			...dateFieldsOf(noteDate(info.frontmatter, source ? source.getMtime(info.path) : null, dateFields)),
			// A line that is only an embed or a comment reads as nothing: the abstract stands in.
			excerpt: found && hasWordsToRead(found.excerpt) ? found.excerpt : abstract,
			forward_links: !withLinks
				? []
				: graph
					? graph.forwardNames(info.path)
					: derived
						? forwardLinksOf(meta)
						: info.forwardLinks,
			backlinks:
				graph && withBacklinks
					? graph.backlinksAmong(info.path, [...(linkers.get(info.path) ?? [])].sort())
					: [],
			score: Math.round(e.score * 1000) / 1000,
			tier: e.tier,
			tier_points: TIER_POINTS[e.tier] + 5 * Math.max(0, e.matches.filter((m) => !m.sw.expansion).length - 1),
			match_term: e.term,
			matched_terms: matchedTerms,
			abstract,
			synthesis: e.synthesis,
			section: found ? found.section : null,
			line: found ? found.line : null,
			tags: meta ? displayTags(meta) : info.tags.map((t) => `#${t}`),
		});
	}
	return hits;
}

/**
 * Run a ranked search over a query string or an already parsed query. Never throws: a bad
 * query comes back as `status: 'failed'` with `error`.
 */
export async function search(
	si: SearchIndex,
	query: string | ParsedQuery,
	options: SearchOptions = {},
): Promise<SearchResult> {
	const limit = Math.max(1, Math.floor(options.limit ?? si.settings.defaultLimit));
	const source = options.source === undefined ? si.source : options.source;
	const parsed = typeof query === 'string' ? parseQuery(query) : query;
	const result = baseResult(si, parsed, typeof query === 'string' ? query : parsed.raw);
	result.query.limit = limit;
	const problem = queryProblem(parsed, source);
	if (problem) {
		return markFailed(result, problem.error, problem.suggestions);
	}
	const folders = folderPrefixes(si, options.folders);
	if ('error' in folders) return markFailed(result, folders.error);
	if (folders.prefixes.length > 0) result.query.folders = folders.prefixes;
	if (si.index.needsCompaction) si.index.compact();
	const limitations = result.limitations;
	for (const u of parsed.unsupported) limitations.push(`${u} is not supported; its words are ranked as free text`);
	limitations.push(...si.exclusions);

	// A word still being typed: the last one, unless a space follows it (only a raw string shows that).
	const typingAt = (typed: readonly QueryWord[]): number =>
		options.prefixLast === true && !(typeof query === 'string' && /\s$/.test(query)) ? typed.length - 1 : -1;
	const words = analyzeWords(si, parsed, typingAt);
	result.terms.typed = words.typed.map((w) => w.text);
	result.terms.corrected = words.corrected;
	result.terms.unmatched = words.unmatched;
	for (const c of words.corrected) limitations.push(`"${c.from}" matched no note; searched as "${c.to}".`);
	if (words.unmatched.length * 2 > words.typed.length) {
		const rest = words.typed.map((w) => w.text).filter((t) => !words.unmatched.includes(t));
		limitations.push(
			`Most query words matched nothing (${words.unmatched.join(', ')})${rest.length > 0 ? `; the results match only ${rest.join(', ')}` : ''}.`,
		);
	}
	result.terms.expanded = words.expansions.map((e) => ({
		text: e.text,
		from: e.from >= 0 ? words.typed[e.from]!.text : null,
		source: e.source,
	}));

	const allowed = buildMask(si, parsed, source, limitations, folders.prefixes, options.paths);
	const bonus = keywordBonus(si, words.typed, words.expansions);
	// Keyword-index points and exact-name points rank together; only the former earn the keyword-index tier.
	const points = mergeBonus(mergeBonus(new Map(), bonus), nameBonus(si, words.typed));
	const verify = needsText(parsed);
	// A host's main thread gets a turn between the phases, and within the ranking (at 50k notes it
	// takes tens of ms, the notes' length norms computed again after any change included).
	await options.slice?.pauseIfUsed();
	let { candidates, total } = await rankCandidates(
		si,
		words,
		allowed,
		points,
		verify ? VERIFY_CAP : Math.max(limit * RERANK_FACTOR, 30),
		options.slice,
	);
	if (verify && (words.scored.length > 0 || points.size > 0) && total > VERIFY_CAP)
		limitations.push(`Only the best ${VERIFY_CAP} of ${total} candidates were checked for phrases/regexes.`);

	await options.slice?.pauseIfUsed();
	let texts = new Map<number, string>();
	if (verify) {
		if (!source) {
			return markFailed(
				result,
				'query: phrases, regexes and multi-word exclusions need the vault text, and this index has no source',
			);
		}
		({ kept: candidates, texts } = await verifyText(si, parsed, candidates, source, options.trigrams));
		total = candidates.length;
	}

	const head = explainHead(si, candidates, words, bonus, limit).slice(0, limit);
	if (total > head.length) limitations.push(`Showing ${head.length} of ${total} matching notes (limit ${limit}).`);
	result.results = boundEchoes(await buildHits(si, head, texts, source, options), limitations);
	result.matched = total;
	result.index_matches = result.results.filter((r) => r.tier === 'keyword-index').length;
	result.grep_matches = result.results.length - result.index_matches;
	if (result.skipped.length > 0) result.status = 'partial';
	if (result.results.length === 0) result.advice = noResultsAdvice(result);
	return result;
}
