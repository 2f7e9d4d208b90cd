/**
 * Context packs (seed 004, obsidian-vault-context): given a question and a token budget, the
 * sections of the vault that answer it as verbatim quotes with source ids, a COVERAGE line per
 * sub-question, the GAPS, and a handoff contract for the downstream agent — as JSON and as
 * Markdown whose estimated size never exceeds the budget.
 *
 * @example
 * ```ts
 * const index = await SearchIndex.build(source);
 * const pack = await buildPack(source, index, { query: '如何链接到标题？', budget: 1500 });
 * pack.markdown; // "# Context pack\n\n## PACK\n\n### [S1] 链接笔记与文件/内部链接.md § 链接到标题 …"
 * ```
 */
import type { NoteSource } from '../port';
import { parseDate } from '../schema/dates';
import { failedEnvelope } from '../failure';
import { parseQuery, type SearchIndex } from '../search/search';
import { fillBudget, placement, sourceId, type Chosen } from './budget';
import { splitFacets, type Facet } from './facets';
import { holdsKeyWord, type KeyWord } from './grade';
import { type DateSource, DAY_PATTERN, noteDate, type NoteDate } from '../note-date';
import { lineRange, renderFrame, renderPackMarkdown, renderSourceBlock, type SourceView } from './render';
import { isPointer, isQuestion, LINK_WEIGHT, QUESTION_WEIGHT, readerText } from './prose';
import { retrieve, scopeSyntax, type Candidate, type Retrieval } from './retrieve';
import { quoteVariants, sentencesOf, type Sentence } from './quotes';
import type { TermCounter } from './terms';
import { LineIndex, linkRefsIn, sectionLabel, withoutRefs, type QuoteUnit } from './sections';
import { countTokens, estimateTokens, TOKEN_ESTIMATOR } from './tokens';
import {
	DEFAULT_BUDGET,
	HANDOFF_INSTRUCTION,
	type ContextPack,
	type CoverageLine,
	type Handoff,
	type PackGap,
	type PackRequest,
	type PackSource,
} from './types';

export type { ContextPack, CoverageLine, Handoff, PackGap, PackRequest, PackSource } from './types';
export { DEFAULT_BUDGET, HANDOFF_INSTRUCTION } from './types';
export { estimateTokens, TOKEN_ESTIMATOR } from './tokens';

const MAX_BUDGET_GAPS = 8; // why: the first few left-out sections tell the agent what a bigger budget buys; a count covers the rest.
const TOKENS_PER_BUDGET_GAP = 300; // why: a listed section costs ~40 tokens; one per 300 keeps the list near a seventh of the budget.
const CODE_AFTER_WEIGHT = 0.9; // why: a block right after a quoted sentence is its example; just below the sentence, so a tight budget keeps the sentence.
const MAX_EXCLUDED_GAPS = 5; // why: naming a few drafts/archived notes shows what exists; the rest is a count.

/** One quote choice of a candidate, ready to render. */
interface Variant {
	quotes: string[];
	cutBefore: boolean[];
	lines: [number, number];
}

/** How the engine's settings shape a pack beyond the request. */
export interface PackOptions {
	/** Date properties that date a source, first set wins (default: the engine's defaults); else the file's modification time. */
	dateFields?: readonly string[];
}

/** A candidate with its quote choices (longest first) and its label facts. */
interface Prepared {
	c: Candidate;
	variants: Variant[];
	section: string;
	date: string;
	dateKey: string | null;
	dateSource: DateSource | null;
	/** The whole section's lines, for GAPS. */
	sectionLines: [number, number];
}

/** The request's normalised facts: trimmed query and task, budget, the handoff's fixed fields, the envelope's `query`. */
function requestFacts(
	request: PackRequest,
	vaultPath: string,
): { raw: string; budget: number; task: string | undefined; handoff: Handoff; query: Record<string, unknown> } {
	const raw = request.query.trim();
	const budget = request.budget ?? DEFAULT_BUDGET;
	const task = request.task?.trim();
	const handoff: Handoff = {
		query: raw,
		token_budget: budget,
		tokens_used: 0,
		source_count: 0,
		vault_path: vaultPath,
		built_at: request.builtAt ?? today(),
		instruction: HANDOFF_INSTRUCTION,
		estimator: TOKEN_ESTIMATOR,
	};
	if (task !== undefined && task !== '') handoff.task = task;
	if (request.budget === undefined)
		handoff.budget_note = `No budget was given: the default of ${DEFAULT_BUDGET} tokens was used.`;
	const query: Record<string, unknown> = {
		raw,
		budget,
		include_drafts: request.includeDrafts === true,
		include_archived: request.includeArchived === true,
	};
	return { raw, budget, task, handoff, query };
}

/** A failed pack for a request that could not run (a face's own reason, e.g. the vault is still loading). */
export function failedContextPack(request: PackRequest, vaultPath: string, error: string): ContextPack {
	const { handoff, query } = requestFacts(request, vaultPath);
	return failedPack(query, handoff, error);
}

/** Today as YYYY-MM-DD (UTC). */
function today(): string {
	return new Date().toISOString().slice(0, 10);
}

/** The empty failed pack, naming the bad parameter. */
function failedPack(query: Record<string, unknown>, handoff: Handoff, error: string, searched = 0): ContextPack {
	return {
		...failedEnvelope(query, error, undefined, searched),
		pack: [],
		coverage: [],
		gaps: [],
		handoff,
		markdown: '',
	};
}

/**
 * How well a sentence answers: `prose` is Σ idf of the key words its prose holds, `link` Σ idf
 * of those it holds only as link text (prose.ts).
 */
function sentenceHits(
	sentence: string,
	keys: readonly KeyWord[],
	counter: TermCounter,
): { prose: number; link: number } {
	const { prose, links } = readerText(sentence);
	const proseCounts = new Map<string, number>();
	counter.count(prose, proseCounts);
	const proseTerms = new Set(proseCounts.keys());
	let allTerms: Set<string> | null = null;
	if (links !== '') {
		const linkCounts = new Map<string, number>();
		counter.count(links, linkCounts);
		allTerms = new Set([...proseTerms, ...linkCounts.keys()]);
	}
	const hits = { prose: 0, link: 0 };
	for (const k of keys) {
		if (holdsKeyWord(proseTerms, k)) hits.prose += k.idf;
		else if (allTerms !== null && holdsKeyWord(allTerms, k)) hits.link += k.idf;
	}
	return hits;
}

/**
 * Quote scores of a section's sentences: prose hits + {@link LINK_WEIGHT} × link-only hits,
 * × {@link QUESTION_WEIGHT} for a question. Link text alone never chooses the quotes: when no
 * sentence holds a key word in its prose, every score is 0 and the section is quoted from its
 * opening sentences, like a section reached through a link ("Raised in [[…]]" is an address,
 * the claim before it is what the section says).
 */
function sentenceScores(
	text: string,
	sentences: readonly Sentence[],
	units: readonly QuoteUnit[],
	keys: readonly KeyWord[],
	counter: TermCounter,
): number[] {
	const hits = sentences.map((s) => sentenceHits(text.slice(s.start, s.end), keys, counter));
	if (!hits.some((h) => h.prose > 0)) return sentences.map(() => 0);
	const scores = hits.map((h, i) => {
		const score = h.prose + LINK_WEIGHT * h.link;
		const s = sentences[i];
		return isQuestion(text.slice(s.start, s.end)) ? score * QUESTION_WEIGHT : score;
	});
	// Code shows how to do what the sentence before it says: it scores at least nearly as well.
	// Only a whole block right after prose: a long block's lines stand on their own words.
	for (let i = 1; i < scores.length; i++) {
		const u = units[sentences[i].unit];
		if (u.kind === 'code' && sentences[i].start === u.start && units[sentences[i - 1].unit].kind !== 'code')
			scores[i] = Math.max(scores[i], CODE_AFTER_WEIGHT * scores[i - 1]);
	}
	return scores;
}

/**
 * The sentences a candidate may quote: a relevant section never quotes a question or a pointer
 * as its evidence (they ask or point, they do not state), unless it has nothing else.
 */
function quotable(c: Candidate): Sentence[] {
	const all = sentencesOf(c.text, c.units);
	if (c.best !== 'relevant') return all;
	const said = all.filter((s) => {
		if (c.units[s.unit].kind === 'code') return true;
		const t = c.text.slice(s.start, s.end);
		return !isQuestion(t) && !isPointer(t);
	});
	return said.length > 0 ? said : all;
}

/** Quote choices and labels of each candidate; candidates with nothing to quote are dropped. */
function prepare(
	candidates: readonly Candidate[],
	keys: readonly KeyWord[],
	counter: TermCounter,
	dateOf: (c: Candidate) => NoteDate | null,
): Prepared[] {
	const lineIndexes = new Map<string, LineIndex>();
	const out: Prepared[] = [];
	for (const c of candidates) {
		let lines = lineIndexes.get(c.path);
		if (!lines) lineIndexes.set(c.path, (lines = new LineIndex(c.text)));
		const li = lines;
		const sentences = quotable(c);
		const scores = sentenceScores(c.text, sentences, c.units, keys, counter);
		const variants = quoteVariants(sentences, scores).map((spans): Variant => ({
			quotes: spans.map((s) => c.text.slice(s.start, s.end)),
			cutBefore: spans.map((s) => s.cutBefore),
			lines: [li.lineOf(spans[0].start), li.lineOf(spans[spans.length - 1].end - 1)],
		}));
		if (variants.length === 0) continue;
		const date = dateOf(c);
		out.push({
			c,
			variants,
			section: sectionLabel(c.section),
			date: date?.date ?? 'undated',
			dateKey: date?.key ?? null,
			dateSource: date?.source ?? null,
			sectionLines: [li.lineOf(c.section.start), li.lineOf(Math.max(c.section.start, c.section.end - 1))],
		});
	}
	return out;
}

/** A prepared candidate as a rendered source. */
function sourceView(p: Prepared, variant: number, id: string): SourceView {
	const v = p.variants[variant];
	return {
		id,
		path: p.c.path,
		section: p.section,
		lines: v.lines,
		date: p.date,
		date_source: p.dateSource,
		quotes: v.quotes,
		cutBefore: v.cutBefore,
		dateKey: p.dateKey,
	};
}

/** COVERAGE: per facet, the chosen sources graded relevant and partial, and the key words none of them holds. */
function coverageOf(
	facets: readonly Facet[],
	keys: readonly KeyWord[][],
	prepared: readonly Prepared[],
	chosen: readonly Chosen[],
): CoverageLine[] {
	return facets.map((f, i) => {
		const sources: string[] = [];
		const partial: string[] = [];
		chosen.forEach((ch, n) => {
			const g = prepared[ch.item].c.grades[i].grade;
			if (g === 'relevant') sources.push(sourceId(n));
			else if (g === 'partial') partial.push(sourceId(n));
		});
		const missing = keys[i]
			.filter((k) => !chosen.some((ch) => holdsKeyWord(prepared[ch.item].c.terms, k)))
			.map((k) => k.word.text);
		// Never over-claim: a facet with a key word no packed source holds is at most partial.
		const status =
			sources.length > 0 && missing.length === 0
				? 'covered'
				: sources.length > 0 || partial.length > 0
					? 'partial'
					: 'gap';
		return { facet: f.text, status, sources, partial_sources: partial, missing_terms: missing };
	});
}

/** GAPS: unresolved references, unanswered and partly answered facets, sections left out for budget, excluded notes. */
function gapsOf(
	r: Retrieval,
	coverage: readonly CoverageLine[],
	prepared: readonly Prepared[],
	leftOut: readonly number[],
	compact: boolean,
	budget: number,
): PackGap[] {
	const gaps: PackGap[] = [];
	for (const ref of r.unresolved) gaps.push({ kind: 'unresolved', text: `Not found in the vault: ${ref.raw}` });
	coverage.forEach((c, i) => {
		if (c.status === 'gap') {
			const byBudget = leftOut.some((k) => prepared[k].c.grades[i].grade !== 'off-topic');
			const why = byBudget ? 'only sections left out for budget answer it' : 'no note in the vault answers it';
			gaps.push({ kind: 'unanswered', facet: c.facet, text: `"${c.facet}": ${why}` });
		} else if (c.status === 'partial') {
			const missing = c.missing_terms.length > 0 ? `: no packed source holds ${c.missing_terms.join(', ')}` : '';
			gaps.push({ kind: 'partial', facet: c.facet, text: `"${c.facet}" is only partly answered${missing}` });
		}
	});
	const shown = compact ? 0 : Math.min(MAX_BUDGET_GAPS, Math.max(2, Math.floor(budget / TOKENS_PER_BUDGET_GAP)));
	for (const k of leftOut.slice(0, shown)) {
		const p = prepared[k];
		gaps.push({
			kind: 'budget',
			path: p.c.path,
			section: p.section,
			lines: p.sectionLines,
			text: `Left out for budget: ${p.c.path} § ${p.section} (${lineRange(p.sectionLines)}, ${p.c.best})`,
		});
	}
	if (leftOut.length > shown) {
		const more = leftOut.length - shown;
		gaps.push({
			kind: 'budget',
			text: `${shown > 0 ? 'And ' : ''}${more} more section${more === 1 ? '' : 's'} left out for budget`,
		});
	}
	const shownEx = compact ? 0 : MAX_EXCLUDED_GAPS;
	for (const e of r.excluded.slice(0, shownEx))
		gaps.push({
			kind: 'excluded',
			path: e.path,
			text: `Left out as ${e.reason === 'draft' ? 'a draft' : 'archived'}: ${e.path}`,
		});
	if (r.excluded.length > shownEx) {
		const more = r.excluded.length - shownEx;
		gaps.push({
			kind: 'excluded',
			text: `${shownEx > 0 ? 'And ' : ''}${more} more matching draft or archived note${more === 1 ? '' : 's'} left out`,
		});
	}
	return gaps;
}

/**
 * Build a context pack (see the module comment and docs/DESIGN.md "Context packs"). Never
 * throws for bad input: an empty query, a bad budget or date, a bad regex, or a budget too small
 * for the pack's own headings and handoff come back as `status: 'failed'` with `error`.
 */
export async function buildPack(
	source: NoteSource,
	index: SearchIndex,
	request: PackRequest,
	options: PackOptions = {},
): Promise<ContextPack> {
	const { raw, budget, task, handoff, query } = requestFacts(request, source.vaultPath);
	const includeDrafts = request.includeDrafts === true;
	const includeArchived = request.includeArchived === true;
	const builtAt = handoff.built_at;
	if (raw === '')
		return failedPack(query, handoff, 'query: empty — ask a question, e.g. "how do I link to a heading?"');
	if (!Number.isInteger(budget) || budget < 1)
		return failedPack(query, handoff, `budget: a whole number of tokens (1 or more), got ${budget}`);
	const day = DAY_PATTERN.test(builtAt) ? parseDate(builtAt) : null;
	if (day === null) return failedPack(query, handoff, `built_at: "${builtAt}" is not a day (YYYY-MM-DD)`);

	const refs = linkRefsIn(raw);
	const searchText = withoutRefs(raw);
	const parsed = parseQuery(searchText);
	const facets = splitFacets(parsed.text);
	Object.assign(query, {
		text: parsed.text,
		facets: facets.map((f) => f.text),
		references: refs.map((r) => r.raw),
		scope: scopeSyntax(parsed),
	});
	if (parsed.error !== null) return failedPack(query, handoff, `query: ${parsed.error}`, index.size);
	const r = await retrieve(source, index, parsed, facets, refs, { includeDrafts, includeArchived });
	if ('error' in r) return failedPack(query, handoff, r.error, index.size);

	const prepared = prepare(r.candidates, r.allKeys, r.counter, (c) =>
		noteDate(c.meta?.frontmatter, source.getMtime(c.path), options.dateFields),
	);
	const frameView = (
		chosen: readonly Chosen[],
		leftOut: readonly number[],
		compact: boolean,
		used: number,
	): { before: string; after: string; coverage: CoverageLine[]; gaps: PackGap[]; handoff: Handoff } => {
		const coverage = coverageOf(facets, r.keys, prepared, chosen);
		const gaps = gapsOf(r, coverage, prepared, leftOut, compact, budget);
		const h: Handoff = { ...handoff, tokens_used: used, source_count: chosen.length };
		return {
			...renderFrame({ task, coverage, gaps, handoff: h, sourceCount: chosen.length }),
			coverage,
			gaps,
			handoff: h,
		};
	};
	const all = prepared.map((_, i) => i);
	const frameTokens = (compact: boolean): number => {
		const f = frameView([], all, compact, budget);
		return estimateTokens(f.before + f.after);
	};
	let compact = false;
	if (frameTokens(false) > budget) {
		compact = true;
		const need = frameTokens(true);
		if (need > budget) {
			let hint = '';
			if (prepared.length > 0) {
				// What the best section needs with its shortest quote, in the compact frame.
				const shortest = prepared[0].variants.length - 1;
				const f = frameView([{ item: 0, variant: shortest }], all.slice(1), true, budget * 10);
				const one = estimateTokens(
					f.before + renderSourceBlock(sourceView(prepared[0], shortest, sourceId(0))) + f.after,
				);
				hint = `; a pack with its best source needs about ${one}`;
			}
			return failedPack(
				query,
				handoff,
				`budget: ${budget} tokens cannot hold even an empty pack (its headings, coverage and handoff need ${need})${hint}`,
				index.size,
			);
		}
	}
	const fill = fillBudget({
		budget,
		count: prepared.length,
		variants: (i) => prepared[i].variants.length,
		block: (i, v, id) => countTokens(renderSourceBlock(sourceView(prepared[i], v, id))),
		frame: (chosen, leftOut) => {
			const f = frameView(chosen, leftOut, compact, budget);
			return countTokens(f.before + f.after);
		},
	});

	// Measure the real Markdown. tokens_used is part of it: the measure only grows with its digits,
	// so starting from the budget and re-measuring can only go down, and stops at the fixed point.
	// Should the pack be over (the check above rules it out), drop the weakest source and measure again.
	const chosen = [...fill.chosen];
	const leftOut = [...fill.leftOut];
	for (;;) {
		const order = placement(chosen.length);
		const views = order.map((k) => sourceView(prepared[chosen[k].item], chosen[k].variant, sourceId(k)));
		const render = (used: number): { frame: ReturnType<typeof frameView>; markdown: string; measured: number } => {
			const frame = frameView(chosen, leftOut, compact, used);
			const markdown = renderPackMarkdown({
				task,
				sources: views,
				coverage: frame.coverage,
				gaps: frame.gaps,
				handoff: frame.handoff,
			});
			return { frame, markdown, measured: estimateTokens(markdown) };
		};
		let out = render(budget);
		while (out.measured <= budget && out.measured !== out.frame.handoff.tokens_used) out = render(out.measured);
		const { frame, markdown } = out;
		if (out.measured <= budget) {
			const pack: PackSource[] = views.map((v) => ({
				id: v.id,
				path: v.path,
				section: v.section,
				lines: v.lines,
				date: v.date,
				date_source: v.date_source,
				quotes: v.quotes,
			}));
			const limitations = [...r.limitations];
			if (r.excluded.length > 0) {
				limitations.push(
					`Left out ${r.excluded.length} matching note(s) as drafts (status: draft) or archived (status: archived/archive, archived: true, #archive or #archived tags); ask to include them to see them.`,
				);
			}
			const skipped = [...index.skipped, ...r.unreadable];
			return {
				status: skipped.length > 0 ? 'partial' : 'success',
				query,
				searched: { files: index.size, folders: [] },
				skipped,
				limitations,
				pack,
				coverage: frame.coverage,
				gaps: frame.gaps,
				handoff: frame.handoff,
				markdown,
			};
		}
		const dropped = chosen.pop();
		if (dropped === undefined) {
			return failedPack(
				query,
				handoff,
				`budget: ${budget} tokens cannot hold the pack (its headings, coverage and handoff need ${out.measured})`,
				index.size,
			);
		}
		leftOut.unshift(dropped.item);
	}
}
