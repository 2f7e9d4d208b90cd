/**
 * The MCP tools: name, input schema (zod, strict — an unknown parameter is an error naming it),
 * and a handler that answers from the warm session with the same contract JSON the CLI prints
 * with `--json`. Descriptions are written for an agent deciding which tool to call and how.
 */
import * as z from 'zod';
import { isAbsolute } from 'node:path';
import { failedReport, READER_OPERATIONS, type ReaderOperation, type ReaderReport } from '../core/reader/index';
import type { SchemaFile } from '../core/schema/load';
import { placeOfSchema, readSchemaFile } from '../node/schema-file';
import {
	ALL_QUERY_ARGUMENTS,
	missingArgument,
	PACK,
	QUERY_TYPE_NAMES,
	QUERY_TYPES,
	SEARCH,
	specOf,
	typesTaking,
	type ArgumentValues,
} from '../core/query/registry';
import type { StructuredQuery } from '../core/query/types';
import { boundList, boundNote, type Truncation } from './bound';
import { confinementError } from './note-uri';
import { describe, parameterName, rankedInput, rankedValues } from './ranked-input';
import {
	renderNoteText,
	renderPackText,
	renderQueryText,
	renderReadText,
	renderSearchText,
	renderStatusText,
} from './render';
import type { ToolSpec } from './tool-spec';
import { statusOf, type ServerStatus } from './status';
import { baseTool } from './base-tool';
import type { SearchResult } from '../core/search/search';
import type { NoteAnswer, VaultEngine } from '../core/engine/engine';
import { DAY_PATTERN } from '../core/note-date';

export type { ToolAnswer, ToolSpec } from './tool-spec';

/** A parameter that does not apply to the chosen kind of query, named in the error. */
export class ParameterError extends Error {}

const folders = z
	.array(z.string())
	.optional()
	.describe('Only these vault folders (e.g. ["Projects", "Notes/2026"]); default: the whole vault.');
const offset = z
	.number()
	.int()
	.min(0)
	.optional()
	.describe('Skip this many results — use the value a truncated response gives in `truncated.next`.');

/** Fails when any of `names` is set: it does not apply to `kind`. */
function reject(args: Record<string, unknown>, names: string[], kind: string): void {
	for (const name of names)
		if (args[name] !== undefined) throw new ParameterError(`${name}: does not apply to ${kind}`);
}

/** The value of a parameter `kind` requires, or an error naming it. */
function need(args: Record<string, unknown>, name: string, kind: string): string {
	const value = args[name];
	if (typeof value !== 'string' || value.trim() === '') throw new ParameterError(`${name}: required for ${kind}`);
	return value;
}

/** Drops the first `skip` results (offset paging) and says so in the query echo. */
function page<T extends { results: unknown[]; query: Record<string, unknown> }>(
	result: T,
	skip: number | undefined,
): T {
	if (!skip) return result;
	return { ...result, query: { ...result.query, offset: skip }, results: result.results.slice(skip) };
}

// Parameters, descriptions and defaults derive from the registry entry (ranked-input.ts); offset is this face's paging.
const searchInput = rankedInput(SEARCH, { text: 'query', ranges: { limit: [1, 200] }, extra: { offset } });

/** `search`: ranked search with the inline filter syntax (seed 003). */
export const searchTool: ToolSpec<typeof searchInput> = {
	name: SEARCH.name,
	title: 'Ranked vault search',
	description: `${describe(SEARCH.summary)} Finds the notes that best answer a question or match keywords, with why each matched (tier, matched terms) and an abstract. Start here when you do not know which note holds the answer; then read one with \`note\` or build a cited context with \`pack\`.`,
	input: searchInput,
	run: async (args, session) => {
		const skip = typeof args.offset === 'number' ? args.offset : 0;
		const { query, limit, folders } = SEARCH.build(args.query as string, rankedValues(SEARCH, args));
		const result = page(
			await session.use(({ engine }) =>
				engine.search(query, { limit: limit + skip, ...(folders ? { folders } : {}) }),
			),
			skip,
		);
		return {
			structured: { ...result },
			text: (shown) => renderSearchText(shown as unknown as SearchResult),
			nextOffset: skip + result.results.length,
			failed: result.status === 'failed',
			bound: (value, max) =>
				boundList(value, 'results', max, (kept) => `call search again with offset: ${skip + kept}`),
		};
	},
};

/** The `truncated` object of a grep that stopped at its limit: `kept` results, the total not counted. */
function stoppedAt(kept: number, next: string): Truncation {
	return { field: 'results', kept, total: null, max_bytes: null, next };
}

// The `query` parameters derive from the registry (core/query/registry.ts): one per argument any type takes.
const argumentParameters = Object.fromEntries(
	ALL_QUERY_ARGUMENTS.map((arg) => [
		parameterName(arg.name),
		(arg.kind === 'flag' ? z.boolean() : z.string())
			.optional()
			.describe(`type=${typesTaking(arg.name).join('|')}: ${arg.help}.`),
	]),
);

const queryInput = z.strictObject({
	type: z.enum(QUERY_TYPE_NAMES).describe(QUERY_TYPES.map((spec) => `${spec.type}: ${spec.summary}`).join('; ')),
	...argumentParameters,
	folders,
	limit: z.number().int().min(1).max(500).optional().describe('At most this many results (default 20).'),
	offset,
});

/** The structural query a `query` call asks for, or a ParameterError naming what is missing or misplaced. */
function structuredQuery(args: z.infer<typeof queryInput>): StructuredQuery {
	const a = args as Record<string, unknown>;
	const kind = `type "${args.type}"`;
	const spec = specOf(args.type);
	const values: ArgumentValues = {};
	for (const arg of ALL_QUERY_ARGUMENTS) {
		const value = a[parameterName(arg.name)];
		const takes = spec.args.some((own) => own.name === arg.name);
		if (!takes && value !== undefined)
			throw new ParameterError(`${parameterName(arg.name)}: does not apply to ${kind}`);
		if (takes && (typeof value === 'string' || typeof value === 'boolean')) values[arg.name] = value;
	}
	const missing = missingArgument(spec, values);
	if (missing !== null) throw new ParameterError(`${parameterName(missing)}: required for ${kind}`);
	return {
		...spec.build(values),
		...(args.folders ? { folders: args.folders } : {}),
		limit: (args.limit ?? 20) + (args.offset ?? 0),
	};
}

/** `query`: the registered structural query types. */
export const queryTool: ToolSpec<typeof queryInput> = {
	name: 'query',
	title: 'Structural vault query',
	description:
		'Exact structural questions about the vault: which notes carry a tag or a property value, what links to or from a note, where a phrase occurs (with line numbers). Give `type` and the one argument it needs (tag | key[,value] | note | pattern).',
	input: queryInput,
	run: async (args, session) => {
		const query = structuredQuery(args);
		// Each state's engine reads one unchanging view of the vault: its link graph is built once, not per call.
		// A grep stops at its limit (a word in most notes costs a few reads); `truncated` says how to get the rest.
		const result = page(
			await session.use(({ engine }) => engine.query(query, { reuseGraph: true, stopAtLimit: true })),
			args.offset,
		);
		const skip = args.offset ?? 0;
		const next = (kept: number): string => `call query again with offset: ${skip + kept}`;
		const structured: Record<string, unknown> =
			result.more === true
				? { ...result, truncated: stoppedAt(result.results.length, next(result.results.length)) }
				: { ...result };
		return {
			structured,
			text: (shown) => renderQueryText(shown as unknown as typeof result, query.type === 'links'),
			nextOffset: skip + result.results.length,
			failed: result.status === 'failed',
			bound: (value, max) => boundList(value, 'results', max, next),
		};
	},
};

const whereValue = z.union([
	z.string(),
	z.number(),
	z.boolean(),
	z.array(z.union([z.string(), z.number(), z.boolean()])),
]);
const readInput = z.strictObject({
	operation: z
		.enum(READER_OPERATIONS as [ReaderOperation, ...ReaderOperation[]])
		.describe(
			"lookup: the note <slug>.md; filter: notes whose frontmatter meets `where`; graph: a note's 1-hop links in and out; text-search: substring/regex in bodies.",
		),
	slug: z.string().optional().describe('lookup|graph: the note\'s file name without .md (e.g. "dcf-valuation").'),
	where: z
		.union([z.record(z.string(), whereValue), z.array(z.string())])
		.optional()
		.describe(
			'filter: {"status": "active", "rating": ">=7"} or ["rating>=7", "type=claim"]; >, >=, <, <= on number, date and ordered-enum fields (AND).',
		),
	pattern: z.string().optional().describe('text-search: the text to find.'),
	regex: z.boolean().optional().describe('text-search: pattern is a regular expression.'),
	case_sensitive: z.boolean().optional().describe('text-search: match case exactly.'),
	folders: z
		.array(z.string())
		.optional()
		.describe('Folders to search, or ["all"] (default: the whole vault, or the folders the profile names).'),
	max_results: z.number().int().min(1).max(500).optional().describe('At most this many results (default 25).'),
	excerpt_chars: z
		.number()
		.int()
		.min(0)
		.max(20000)
		.optional()
		.describe('Characters of body per excerpt (default 300).'),
	full_body: z.boolean().optional().describe("Include each result's whole body."),
	include_archived: z.boolean().optional().describe('Keep notes with status: archived (left out by default).'),
	min_confidence: z
		.string()
		.optional()
		.describe("Keep notes whose confidence is this or stronger (the schema's ordered enum)."),
	max_staleness_days: z
		.number()
		.int()
		.min(0)
		.optional()
		.describe('Keep notes verified within this many days of today (never-verified notes pass).'),
	today: z
		.string()
		.regex(DAY_PATTERN)
		.optional()
		.describe('The day staleness counts from (YYYY-MM-DD; default today, UTC).'),
	known_skill_refs: z
		.array(z.string())
		.optional()
		.describe('graph: link names to tag skill-library-ref instead of unresolved.'),
	resolve_wikilinks: z
		.boolean()
		.optional()
		.describe('graph: include the vault path of each resolved link (default true).'),
	schema: z
		.string()
		.min(1)
		.optional()
		.describe(
			'The schema note: a vault path (default _meta/frontmatter-schema.md); an absolute path, read as given even outside the vault; or "draft" — a schema drafted in memory from the frontmatter of the notes in scope, for a vault that has no schema note (nothing is written).',
		),
});

/** The schema a read uses: "draft" drafted in memory, an absolute path read where it is (inside the vault: as its vault path), else the vault path as given; a string: why it cannot be read. */
async function schemaFor(
	given: string | undefined,
	engine: VaultEngine,
): Promise<{ inVault?: string; file?: SchemaFile } | string> {
	if (given === undefined) return {};
	if (given === 'draft')
		return {
			file: { path: 'schema drafted in memory from the vault', text: await engine.schemaDraft(), mtime: null },
		};
	if (!isAbsolute(given)) return {};
	const place = placeOfSchema(engine.source.vaultPath, given);
	if ('inVault' in place) return { inVault: place.inVault };
	const file = await readSchemaFile(place.outside);
	return typeof file === 'string' ? file : { file };
}

/** `read`: the schema-strict reader (seed 001) with its retrieval report. */
export const readTool: ToolSpec<typeof readInput> = {
	name: 'read',
	title: 'Schema-strict vault reader',
	description:
		'Schema-strict reads for notes that follow a frontmatter schema: look a note up by slug, filter by typed frontmatter predicates, walk its 1-hop link graph, or text-search bodies — each with a retrieval report (folders searched, skipped files, filters applied, why results were dropped). The schema is the vault\'s schema note, an absolute path anywhere on this machine (honoured even outside the vault), or schema: "draft" for a vault without one.',
	input: readInput,
	run: async (args, session) => {
		const a = args as Record<string, unknown>;
		const kind = `operation "${args.operation}"`;
		if (args.operation === 'lookup' || args.operation === 'graph') need(a, 'slug', kind);
		if (args.operation === 'filter' && args.where === undefined)
			throw new ParameterError(`where: required for ${kind}`);
		if (args.operation === 'text-search') need(a, 'pattern', kind);
		if (args.operation !== 'graph') reject(a, ['known_skill_refs', 'resolve_wikilinks'], kind);
		const report = await session.use(async ({ engine }) => {
			const schema = await schemaFor(args.schema, engine);
			if (typeof schema === 'string')
				return failedReport(args, engine.settings.reader, engine.source.vaultPath, schema);
			const request = schema.inVault === undefined ? args : { ...args, schema: schema.inVault };
			return engine.read(request, schema.file);
		});
		return {
			structured: { ...report },
			text: (shown) => renderReadText(shown as unknown as ReaderReport),
			failed: report.status === 'failed',
			bound: (value, max) =>
				boundList(value, 'results', max, () => 'narrow the request (max_results, folders, no full_body)'),
		};
	},
};

// The question is this face's name for the pack's free text (the `handoff` prompt's too); budgets an agent reads stay small.
const packInput = rankedInput(PACK, { text: 'question', ranges: { budget: [200, 32000] } });

/** `pack`: a citation-ready context pack within a token budget (seed 004). */
export const packTool: ToolSpec<typeof packInput> = {
	name: PACK.name,
	title: 'Context pack with citations',
	description: `${describe(PACK.summary)} Gathers verbatim, cited evidence (S1…Sn: path, section, line range, quotes) for a question, with coverage per sub-question, the gaps, and a handoff block for the next agent. Use it to answer from the vault with citations.`,
	input: packInput,
	run: async (args, session) => {
		const pack = await session.use(({ engine }) =>
			engine.pack(PACK.build(args.question as string, rankedValues(PACK, args))),
		);
		return {
			structured: { ...pack },
			text: () => renderPackText(pack),
			failed: pack.status === 'failed',
			bound: (value, max) => boundList(value, 'pack', max, () => 'call pack again with a smaller budget'),
		};
	},
};

const noteInput = z.strictObject({
	note: z
		.string()
		.min(1)
		.describe(
			'A note by name or vault path, optionally with a section: "Home", "folder/Note.md", "Note#Heading", "Note#Heading#Subheading", "Note#^block-id".',
		),
	from: z
		.number()
		.int()
		.min(1)
		.optional()
		.describe("First line to return (1-based, in the whole note's numbering) — for long notes."),
	to: z.number().int().min(1).optional().describe('Last line to return (inclusive).'),
});

/** `note`: one note or section, verbatim, with its line range. */
export const noteTool: ToolSpec<typeof noteInput> = {
	name: 'note',
	title: 'Read a note or section',
	description:
		'The verbatim text of one note, or of one section (Note#Heading) or block (Note#^id), with its line range in the note — e.g. to read a source a search hit or a pack citation points at. Use from/to to page through long notes.',
	input: noteInput,
	run: async (args, session) => {
		const why = confinementError(args.note.split('#')[0]!);
		if (why !== null) throw new ParameterError(`note: "${args.note}" ${why}`);
		const result = await session.use(({ engine }) => engine.note({ ref: args.note, from: args.from, to: args.to }));
		return {
			structured: { ...result },
			text: (shown) => renderNoteText(shown as unknown as NoteAnswer),
			failed: result.status === 'failed',
			bound: boundNote,
		};
	},
};

/** `status`: what the server has indexed and how fresh it is. */
export const statusTool: ToolSpec<z.ZodObject> = {
	name: 'status',
	title: 'Index status',
	description:
		'What the server has indexed: the vault path, notes indexed, files skipped with reasons, when the index was last refreshed, whether the file watcher is running and whether a snapshot was used. Call it when results look incomplete or stale.',
	input: z.strictObject({}),
	run: (_args, session) => {
		const status = statusOf(session);
		return Promise.resolve({
			structured: { ...status },
			text: (shown) => renderStatusText(shown as unknown as ServerStatus),
			failed: false,
			bound: (value, max) =>
				boundList(
					value,
					'skipped',
					max,
					() => 'the skipped list is cut; `vault-query status --json` in a shell prints all of it',
				),
		});
	},
};

/** Every tool, in the order `tools/list` shows them. */
export const TOOLS = [
	searchTool,
	queryTool,
	readTool,
	packTool,
	noteTool,
	baseTool,
	statusTool,
] as unknown as ToolSpec[];
