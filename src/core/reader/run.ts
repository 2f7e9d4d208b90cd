import type { SkippedFile, Status } from '../contract';
import type { NoteSource } from '../port';
import { failed, skippedFiles, type Hit } from '../query/envelope';
import { grepQuery } from '../query/grep';
import type { TrigramIndex } from '../text/trigram';
import { ScopeError } from '../scope';
import { loadSchema, type SchemaFile } from '../schema/load';
import { SchemaError, type Schema } from '../schema/types';
import { filterNotes } from './filter';
import { lookupSlug } from './lookup';
import { applyPostFilters } from './post-filters';
import { echoOf, planRequest, type ReaderPlan } from './request';
import { readerScope, type ReaderScope } from './scope';
import { shapeResults } from './shape';
import { describePredicate } from './where';
import { DEFAULT_READER_SETTINGS, type ReaderReport, type ReaderRequest, type ReaderSettings } from './types';

/** What an operation found, before post-filters, cap and shaping. */
interface Found {
	hits: Hit[];
	skipped: SkippedFile[];
	limitations: string[];
	suggestions: string[];
	tried?: string[];
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

/** Run the validated operation over the scope. */
async function execute(
	scope: ReaderScope,
	plan: ReaderPlan,
	schema: Schema,
	trigrams: TrigramIndex | null,
): Promise<Found> {
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
	if (plan.operation === 'text-search' && plan.matcher) {
		const outcome = await grepQuery(ctx, plan.matcher, trigrams);
		return {
			hits: outcome.hits,
			skipped: skippedFiles(ctx, false),
			limitations: outcome.limitations ?? [],
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
 * `--schema` pointing outside the vault).
 */
export async function runReader(
	source: NoteSource,
	request: ReaderRequest,
	settings: ReaderSettings = DEFAULT_READER_SETTINGS,
	schemaFile?: SchemaFile,
	trigrams: TrigramIndex | null = null,
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
		);
	} catch (error) {
		if (error instanceof ScopeError) return fail(error.message, [], schema);
		throw error;
	}
	const found = await execute(scope, plan, schema, trigrams);
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
