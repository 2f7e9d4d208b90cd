import type { SkippedFile, Status } from '../contract';
import { titleOf } from '../note-info';
import type { NoteSource } from '../port';
import type { BriefNote } from '../query/grep-stream';
import type { RawLines } from '../query/note-matches';
import { failed, skippedFiles, type Hit } from '../query/envelope';
import { scanGrep } from '../query/grep';
import type { TextMatcher } from '../text/matcher';
import type { TrigramIndex } from '../text/trigram';
import { ScopeError } from '../scope';
import { loadSchema, type SchemaFile } from '../schema/load';
import { SchemaError, type Schema } from '../schema/types';
import { filterNotes } from './filter';
import { lookupSlug } from './lookup';
import { applyPostFilters, postFilterRun } from './post-filters';
import { echoOf, planRequest, type ReaderPlan } from './request';
import { readerScope, type ReaderScope } from './scope';
import { shapeResults, toReaderResult } from './shape';
import { describePredicate } from './where';
import {
	DEFAULT_READER_SETTINGS,
	type ReaderNoteResult,
	type ReaderReport,
	type ReaderRequest,
	type ReaderSettings,
} from './types';

/** What an operation found, before post-filters, cap and shaping. */
interface Found {
	hits: Hit[];
	skipped: SkippedFile[];
	limitations: string[];
	suggestions: string[];
	tried?: string[];
}

/** The report's fields known before a text-search reads a note: a streamed answer starts with them. */
export type ReaderHead = Pick<ReaderReport, 'status' | 'operation' | 'vault_path' | 'query' | 'schema' | 'searched'>;

/** Where a streamed text-search hands its answer. */
export interface ReaderSink {
	/** Once, before the first result (never for a call that could not run). */
	begin(head: ReaderHead): Promise<void> | void;
	/**
	 * One result, in the report's order, as it is found: `brief` at once, `full()` the report's
	 * result (frontmatter, links, counts) when wanted — a text listing shows only the brief.
	 */
	note(brief: BriefNote, full: () => Promise<ReaderNoteResult>): Promise<void> | void;
	/** Optional, for a text listing: a result matched on its bytes, its lines left as bytes (as `GrepSink.noteRaw`). */
	noteRaw?(path: string, title: string, lines: RawLines): Promise<void> | void;
}

/** The report of a call that could not run: `failed`, the error naming the parameter (or path) at fault. */
export function failedReport(
	request: ReaderRequest,
	settings: ReaderSettings,
	vaultPath: string,
	error: string,
	suggestions: string[] = [],
	schema: Schema | null = null,
): ReaderReport {
	return {
		...failed(echoOf(request, settings), error, suggestions),
		operation: String(request.operation),
		vault_path: vaultPath,
		schema: schema && { path: schema.path, modified: schema.modified },
	};
}

/** Run the validated operation (lookup, filter, graph) over the scope. */
function execute(scope: ReaderScope, plan: ReaderPlan, schema: Schema): Found {
	const { ctx } = scope;
	if (plan.operation === 'filter') {
		const { hits, noFrontmatter } = filterNotes(ctx, plan.predicates, schema);
		return {
			hits: hits.map((path) => ({ path })),
			skipped: [...noFrontmatter, ...skippedFiles(ctx, true)],
			limitations: [],
			suggestions: [],
		};
	}
	const lookup = lookupSlug(scope, plan.slug);
	const skipped = skippedFiles(ctx, false).filter((skip) => skip.path === lookup.path);
	if (lookup.path === null) {
		return {
			hits: [],
			skipped,
			limitations: [`No note "${plan.slug}" in scope; tried: ${lookup.tried.join(', ')}`],
			suggestions: lookup.suggestions,
			tried: lookup.tried,
		};
	}
	return { hits: [{ path: lookup.path }], skipped, limitations: [], suggestions: [], tried: lookup.tried };
}

/**
 * Run one schema-strict read (seed 001, vault-reader) and return its retrieval report. Fails
 * closed: a missing or malformed schema note, an invalid parameter or an unknown folder is a
 * `failed` report naming the path or parameter — never a best-effort answer. Nothing matched is
 * a `success` with no results. `schemaFile` replaces the vault's schema note (the CLI's
 * `--schema` pointing outside the vault). With `sink`, a text-search hands each result to it as it
 * is found and resolves with the report without its results (`results` empty).
 */
export async function runReader(
	source: NoteSource,
	request: ReaderRequest,
	settings: ReaderSettings = DEFAULT_READER_SETTINGS,
	schemaFile?: SchemaFile,
	trigrams: TrigramIndex | null = null,
	sink?: ReaderSink,
): Promise<ReaderReport> {
	const fail = (error: string, suggestions?: string[], schema?: Schema): ReaderReport =>
		failedReport(request, settings, source.vaultPath, error, suggestions, schema);
	let schema: Schema;
	try {
		schema = await loadSchema(
			source,
			schemaFile
				? { kind: 'file', file: schemaFile }
				: { kind: 'vault', path: request.schema ?? settings.schemaPath },
		);
	} catch (error) {
		if (error instanceof SchemaError) return fail(`schema: ${error.message}`);
		throw error;
	}
	const plan = planRequest(request, settings, schema);
	if ('error' in plan) return fail(plan.error, plan.suggestions, schema);
	let scope: ReaderScope;
	try {
		scope = readerScope(
			source,
			{ ...settings, engine: { ...settings.engine, excerptChars: plan.excerptChars } },
			request.folders,
			sink !== undefined && plan.operation === 'text-search',
		);
	} catch (error) {
		if (error instanceof ScopeError) return fail(error.message, [], schema);
		throw error;
	}
	if (plan.operation === 'text-search' && plan.matcher)
		return textSearch(source, scope, plan, schema, {
			query: echoOf(request, settings),
			matcher: plan.matcher,
			trigrams,
			sink,
		});
	const found = execute(scope, plan, schema);
	const frontmatterOf = (path: string): Record<string, unknown> => source.getMetadata(path)?.frontmatter ?? {};
	const { kept: keptHits, applied } = applyPostFilters(found.hits, frontmatterOf, plan.post);
	const shown = keptHits.slice(0, plan.maxResults);
	const where = plan.predicates.length > 0 ? [`where ${plan.predicates.map(describePredicate).join(', ')}`] : [];
	const limitations = [
		...scope.limitations,
		...found.limitations,
		`Filters applied: ${[...where, ...applied].join('; ')}`,
	];
	if (shown.length < keptHits.length)
		limitations.push(`Truncated to ${plan.maxResults}; ${keptHits.length} total matches before cap`);
	limitations.push(...schema.notes.map((note) => `Schema: ${note}`));
	const lossy = found.skipped.some(
		(skip) =>
			skip.reason.startsWith('not searched') ||
			(plan.operation === 'filter' && skip.reason.startsWith('frontmatter not parsed')),
	);
	const status: Status = lossy ? 'partial' : 'success';
	const report: ReaderReport = {
		status,
		operation: plan.operation,
		vault_path: source.vaultPath,
		query: echoOf(request, settings),
		schema: { path: schema.path, modified: schema.modified },
		searched: {
			files: scope.ctx.scope.notes.length,
			folders: scope.folders.length > 0 ? scope.folders : ['(whole vault)'],
		},
		matched: keptHits.length,
		results: await shapeResults(scope.ctx, shown, plan),
		skipped: found.skipped,
		limitations,
	};
	if (found.tried) report.tried = found.tried;
	if (found.suggestions.length > 0) report.suggestions = found.suggestions;
	return report;
}

/**
 * A text-search: the notes in scope are scanned in order and each one that matches and passes the
 * post-filters is shaped at once (to `sink`, or kept for the report) up to `max_results`; past it
 * matches are only counted. No list of every hit is held, so a full answer's memory is bounded.
 */
async function textSearch(
	source: NoteSource,
	scope: ReaderScope,
	plan: ReaderPlan,
	schema: Schema,
	run: {
		query: Record<string, unknown>;
		matcher: TextMatcher;
		trigrams: TrigramIndex | null;
		sink: ReaderSink | undefined;
	},
): Promise<ReaderReport> {
	const { query, matcher, trigrams, sink } = run;
	const { ctx } = scope;
	const skipped = skippedFiles(ctx, false);
	const head: ReaderHead = {
		status: skipped.some((skip) => skip.reason.startsWith('not searched')) ? 'partial' : 'success',
		operation: plan.operation,
		vault_path: source.vaultPath,
		query,
		schema: { path: schema.path, modified: schema.modified },
		searched: {
			files: ctx.scope.notes.length,
			folders: scope.folders.length > 0 ? scope.folders : ['(whole vault)'],
		},
	};
	await sink?.begin(head);
	const filter = postFilterRun(plan.post);
	const results: ReaderNoteResult[] = [];
	const scanned: string[] = [];
	let matched = 0;
	await scanGrep(
		ctx,
		matcher,
		trigrams,
		undefined,
		async (hit) => {
			const meta = ctx.source.getMetadata(hit.path);
			if (!filter.keeps(meta?.frontmatter ?? {})) return;
			if (++matched > plan.maxResults) return;
			if (hit.raw !== undefined) await sink!.noteRaw!(hit.path, titleOf(hit.path, meta), hit.raw);
			else if (sink)
				await sink.note({ path: hit.path, title: titleOf(hit.path, meta), matches: hit.matches }, () =>
					toReaderResult(ctx, hit, plan),
				);
			else results.push(await toReaderResult(ctx, hit, plan));
		},
		scanned,
		// A text listing takes the lines of a note matched on its bytes as bytes.
		sink?.noteRaw !== undefined,
	);
	const limitations = [...scope.limitations, ...scanned, `Filters applied: ${filter.applied().join('; ')}`];
	if (matched > plan.maxResults)
		limitations.push(`Truncated to ${plan.maxResults}; ${matched} total matches before cap`);
	limitations.push(...schema.notes.map((note) => `Schema: ${note}`));
	return { ...head, matched, results, skipped, limitations };
}
