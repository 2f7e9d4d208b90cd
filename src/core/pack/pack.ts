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
import { DAY_PATTERN, noteDate } from '../note-date';
import { prepare, sourceView, type Prepared } from './prepare';
import { renderFrame, renderPackMarkdown, renderSourceBlock } from './render';
import { coverageOf, gapsOf } from './report';
import { retrieve, scopeSyntax, type Retrieval } from './retrieve';
import { linkRefsIn, withoutRefs } from './sections';
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

/** How the engine's settings shape a pack beyond the request. */
export interface PackOptions {
	/** Date properties that date a source, first set wins (default: the engine's defaults); else the file's modification time. */
	dateFields?: readonly string[];
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

/** A pack that failed before retrieval for a reason found outside it (a base scope that could not be evaluated). */
export function failedPackOf(request: PackRequest, vaultPath: string, error: string): ContextPack {
	const { handoff, query } = requestFacts(request, vaultPath);
	return failedPack(query, handoff, error);
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
	if (parsed.error !== null)
		return failedPack(
			query,
			handoff,
			parsed.error.startsWith('query: ') ? parsed.error : `query: ${parsed.error}`,
			index.size,
		);
	const only = request.paths ? new Set(request.paths) : undefined;
	if (request.base !== undefined) query.base = request.base;
	const r = await retrieve(source, index, parsed, facets, refs, { includeDrafts, includeArchived, only });
	if ('error' in r) return failedPack(query, handoff, r.error, index.size);

	const prepared = prepare(r.candidates, r.allKeys, r.counter, (c) =>
		noteDate(c.meta?.frontmatter, source.getMtime(c.path), options.dateFields),
	);
	const frame = new Frame(r, facets, prepared, budget, task, handoff);
	const compact = fitFrame(frame);
	if (typeof compact === 'string') return failedPack(query, handoff, compact, index.size);
	const fill = fillBudget({
		budget,
		count: prepared.length,
		variants: (i) => prepared[i]!.variants.length,
		block: (i, v, id) => countTokens(renderSourceBlock(sourceView(prepared[i]!, v, id))),
		frame: (chosen, leftOut) => {
			const f = frame.view(chosen, leftOut, compact, budget);
			return countTokens(f.before + f.after);
		},
	});
	const out = renderWithinBudget(frame, fill.chosen, fill.leftOut, compact);
	if (typeof out === 'string') return failedPack(query, handoff, out, index.size);
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
		pack: out.pack,
		coverage: out.frame.coverage,
		gaps: out.frame.gaps,
		handoff: out.frame.handoff,
		markdown: out.markdown,
	};
}

/** Everything of a pack but its source blocks, for a given choice of sources. */
interface FrameView {
	before: string;
	after: string;
	coverage: CoverageLine[];
	gaps: PackGap[];
	handoff: Handoff;
}

/** The frame of one pack request: coverage, gaps and handoff around whatever sources are chosen. */
class Frame {
	constructor(
		readonly r: Retrieval,
		readonly facets: readonly Facet[],
		readonly prepared: readonly Prepared[],
		readonly budget: number,
		readonly task: string | undefined,
		readonly handoff: Handoff,
	) {}

	/** The frame with `chosen` packed, `leftOut` listed for budget, and `used` tokens in the handoff. */
	view(chosen: readonly Chosen[], leftOut: readonly number[], compact: boolean, used: number): FrameView {
		const coverage = coverageOf(this.facets, this.r.keys, this.prepared, chosen);
		const gaps = gapsOf(this.r, coverage, this.prepared, leftOut, compact, this.budget);
		const h: Handoff = { ...this.handoff, tokens_used: used, source_count: chosen.length };
		const task = this.task;
		return {
			...renderFrame({ task, coverage, gaps, handoff: h, sourceCount: chosen.length }),
			coverage,
			gaps,
			handoff: h,
		};
	}
}

/**
 * Whether the frame must be compact (no budget or excluded-note lines in GAPS) to fit the
 * budget with every candidate left out; an error text when even the compact frame does not fit.
 */
function fitFrame(frame: Frame): boolean | string {
	const { prepared, budget } = frame;
	const all = prepared.map((_, i) => i);
	const frameTokens = (compact: boolean): number => {
		const f = frame.view([], all, compact, budget);
		return estimateTokens(f.before + f.after);
	};
	if (frameTokens(false) <= budget) return false;
	const need = frameTokens(true);
	if (need <= budget) return true;
	let hint = '';
	if (prepared.length > 0) {
		// What the best section needs with its shortest quote, in the compact frame.
		const shortest = prepared[0]!.variants.length - 1;
		const f = frame.view([{ item: 0, variant: shortest }], all.slice(1), true, budget * 10);
		const one = estimateTokens(
			f.before + renderSourceBlock(sourceView(prepared[0]!, shortest, sourceId(0))) + f.after,
		);
		hint = `; a pack with its best source needs about ${one}`;
	}
	return `budget: ${budget} tokens cannot hold even an empty pack (its headings, coverage and handoff need ${need})${hint}`;
}

/**
 * Render the chosen sources and measure the real Markdown. tokens_used is part of it: the
 * measure only grows with its digits, so starting from the budget and re-measuring can only go
 * down, and stops at the fixed point. Should the pack be over (fitFrame and fillBudget rule it
 * out), drop the weakest source and measure again; an error text when nothing fits.
 */
function renderWithinBudget(
	frame: Frame,
	fillChosen: readonly Chosen[],
	fillLeftOut: readonly number[],
	compact: boolean,
): { pack: PackSource[]; frame: FrameView; markdown: string } | string {
	const { prepared, budget, task } = frame;
	const chosen = [...fillChosen];
	const leftOut = [...fillLeftOut];
	for (;;) {
		const order = placement(chosen.length);
		const views = order.map((k) => sourceView(prepared[chosen[k]!.item]!, chosen[k]!.variant, sourceId(k)));
		const render = (used: number): { frame: FrameView; markdown: string; measured: number } => {
			const f = frame.view(chosen, leftOut, compact, used);
			const markdown = renderPackMarkdown({
				task,
				sources: views,
				coverage: f.coverage,
				gaps: f.gaps,
				handoff: f.handoff,
			});
			return { frame: f, markdown, measured: estimateTokens(markdown) };
		};
		let out = render(budget);
		while (out.measured <= budget && out.measured !== out.frame.handoff.tokens_used) out = render(out.measured);
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
			return { pack, frame: out.frame, markdown: out.markdown };
		}
		const dropped = chosen.pop();
		if (dropped === undefined)
			return `budget: ${budget} tokens cannot hold the pack (its headings, coverage and handoff need ${out.measured})`;
		leftOut.unshift(dropped.item);
	}
}
