import { hintsBeyond } from '../../core/display';
import { resolve } from 'node:path';
import {
	failedReport,
	renderReport,
	DEFAULT_READER_SETTINGS,
	type ReaderReport,
	type ReaderRequest,
	type SchemaFile,
} from '../../core/reader/index';
import type { NoteSource } from '../../core/port';
import { VaultError } from '../../node/vault-source';
import { placeOfSchema, readSchemaFile } from '../../node/schema-file';
import {
	boolFlag,
	listFlag,
	numberFlag,
	positionals,
	stringFlag,
	UsageError,
	type FlagSpec,
	type ParsedArgs,
} from '../args';
import { EXIT, limitFlags, MORE, type Command, type CommandIO } from '../command';
import { renderNote, renderText } from '../../core/query/render-text';
import type { VaultEngine } from '../../core/engine/engine';
import { AnswerStream, STREAM_ABOVE } from '../stream';
import { CONTEXT_FLAG, ENGINE_FLAGS, openCliVaultOrThrow, vaultPathOf, type CliVault } from '../vault';
import { GREP } from '../../core/query/registry';
import { switchesOf } from './structural';
import { compileMatcher } from '../../core/text/matcher';
import { parseWhere } from '../../core/reader/where';

/** Flags every reader command takes: the seed's parameter names, kebab-cased. */
const READER_FLAGS: Record<string, FlagSpec> = {
	folders: {
		kind: 'list',
		value: 'A,B',
		help: 'folders to search, or "all" (default: the whole vault; profile team-folders: Notes/, skill-lab/)',
	},
	...limitFlags(25),
	'excerpt-chars': {
		kind: 'number',
		value: 'N',
		range: [1, 100_000],
		help: 'characters of body per excerpt (default 300)',
	},
	'full-body': { kind: 'boolean', help: "include each result's whole body" },
	'include-archived': { kind: 'boolean', help: 'keep notes with status: archived (excluded by default)' },
	'min-confidence': {
		kind: 'string',
		value: 'LEVEL',
		help: "keep notes whose confidence is this or stronger (the schema's ordered enum)",
	},
	'max-staleness-days': {
		kind: 'number',
		value: 'N',
		range: [0, 1_000_000],
		help: 'keep notes with last_verified within N days of today (never-verified notes pass)',
	},
	today: { kind: 'string', value: 'YYYY-MM-DD', help: 'the day staleness counts from (default: today, UTC)' },
	schema: {
		kind: 'string',
		value: 'PATH',
		help: 'the schema note (default: <vault>/_meta/frontmatter-schema.md); may lie outside the vault',
	},
	report: {
		kind: 'boolean',
		help: 'print the retrieval report: query, scope, schema, results with the fields a filter used, skipped notes, limitations (--verbose: every property)',
	},
	'date-fields': ENGINE_FLAGS['date-fields'],
};

/** The request parameters every operation shares, from the flags. */
function common(args: ParsedArgs): Omit<ReaderRequest, 'operation'> {
	const days = numberFlag(args, 'max-staleness-days');
	const request: Omit<ReaderRequest, 'operation'> = {
		full_body: boolFlag(args, 'full-body'),
		include_archived: boolFlag(args, 'include-archived'),
	};
	const folders = listFlag(args, 'folders');
	if (folders.length > 0) request.folders = folders;
	const optional = {
		max_results: numberFlag(args, 'limit'),
		excerpt_chars: numberFlag(args, 'excerpt-chars'),
		min_confidence: stringFlag(args, 'min-confidence'),
		max_staleness_days: days,
		today: stringFlag(args, 'today'),
	};
	for (const [key, value] of Object.entries(optional))
		if (value !== undefined) Object.assign(request, { [key]: value });
	return request;
}

/**
 * `--schema PATH` (relative to the working directory, like `--vault`): a note inside the vault is
 * read through the vault like the default; a file outside it is read here, since the port only
 * reads the vault. A missing file fails closed, naming the path.
 */
async function schemaOption(
	args: ParsedArgs,
	io: CommandIO,
	source: NoteSource,
	request: ReaderRequest,
): Promise<SchemaFile | string | undefined> {
	const given = stringFlag(args, 'schema');
	if (given === undefined) return undefined;
	const place = placeOfSchema(source.vaultPath, resolve(io.cwd, given));
	if ('inVault' in place) {
		request.schema = place.inVault;
		return undefined;
	}
	return readSchemaFile(place.outside);
}

/** The graph's link lists under the short listing. */
function graphLines(report: ReaderReport): string[] {
	const lines: string[] = [];
	for (const result of report.results) {
		for (const link of result.outbound ?? [])
			lines.push(`  → [[${link.linkpath}]]${link.path ? ` (${link.path})` : ''}  [${link.resolution}]`);
		for (const ref of result.inbound ?? []) lines.push(`  ← ${ref.path}  [${ref.source}]`);
	}
	return lines.length > 0 ? ['', 'Links:', ...lines] : [];
}

/** Print the report (JSON, the seed's text report, or the short listing) and map it to the exit code. */
function print(report: ReaderReport, args: ParsedArgs, io: CommandIO): number {
	if (boolFlag(args, 'json')) io.stdout(JSON.stringify(report, null, 2));
	else if (boolFlag(args, 'report')) io.stdout(renderReport(report, { allFields: boolFlag(args, 'verbose') }));
	else if (report.status !== 'failed')
		io.stdout(
			[renderText(report, false, { verbose: boolFlag(args, 'verbose'), more: MORE }), ...graphLines(report)].join(
				'\n',
			),
		);
	if (report.status === 'failed') {
		io.stderr(`vault-query ${report.operation}: ${report.error ?? 'failed'}`);
		for (const hint of hintsBeyond(report.error, report.suggestions)) io.stderr(`  ${hint}`);
		return EXIT.couldNotSearch;
	}
	return report.results.length > 0 ? EXIT.results : EXIT.nothingMatched;
}

/** What can be checked without the vault or its schema (a regex, the shape of each --where) fails here, before a file is read. */
function checkSyntax(request: ReaderRequest): void {
	if (request.operation === 'text-search') {
		const compiled = compileMatcher({
			pattern: request.pattern ?? '',
			regex: request.regex === true,
			caseSensitive: request.case_sensitive === true,
		});
		if (!compiled.ok) throw new UsageError(compiled.error);
	}
	const where = parseWhere(request.where);
	if ('error' in where) throw new UsageError(where.error);
}

/** Open the vault (failing closed with its resolved path), then run the read. */
async function execute(args: ParsedArgs, io: CommandIO, request: ReaderRequest): Promise<number> {
	checkSyntax(request);
	if (boolFlag(args, 'json') && boolFlag(args, 'report'))
		throw new UsageError('--json and --report are two renderings of one report; give one');
	let opened: CliVault;
	try {
		opened = await openCliVaultOrThrow(args, io);
	} catch (error) {
		if (error instanceof VaultError)
			return print(
				failedReport(request, DEFAULT_READER_SETTINGS, vaultPathOf(args, io), `vault_path: ${error.message}`),
				args,
				io,
			);
		throw error;
	}
	const { source, engine } = opened;
	const schema = await schemaOption(args, io, source, request);
	if (typeof schema === 'string')
		return print(failedReport(request, engine.settings.reader, source.vaultPath, schema), args, io);
	// A full answer (what rg gives) is written as it is found, never held whole; --report stays one report.
	if (request.operation === 'text-search' && (request.max_results ?? 0) > STREAM_ABOVE && !boolFlag(args, 'report'))
		return streamTextSearch(args, io, engine, { ...request, operation: 'text-search' }, schema);
	return print(await engine.read(request, schema), args, io);
}

/** `vault-query text-search` with a high `--limit`: each result is written as it is found (cli/stream.ts). */
async function streamTextSearch(
	args: ParsedArgs,
	io: CommandIO,
	engine: VaultEngine,
	request: ReaderRequest & { operation: 'text-search' },
	schema: SchemaFile | undefined,
): Promise<number> {
	const answer = new AnswerStream(args, io);
	const report = await engine.readStream(
		request,
		{
			begin: (head) => answer.begin(head),
			note: (brief, full) => answer.note(full, () => renderNote(brief)),
			// A text listing takes the lines of a note matched on its bytes as bytes (as grep's does).
			...(boolFlag(args, 'json') ? {} : { noteRaw: (path, title, raw) => answer.noteRaw(path, title, raw) }),
		},
		schema,
	);
	if (report.status === 'failed') return print(report, args, io);
	return answer.end(report);
}

/** `vault-query lookup <slug>` */
export const lookupCommand: Command = {
	name: 'lookup',
	summary: 'schema-strict: the note <slug>.md in the first scoped folder that has it, with a retrieval report',
	usage: '<slug>',
	examples: [
		'vault-query lookup dcf-valuation --vault examples/vault',
		'vault-query lookup position-sizing --folders sources,skill-lab --report',
	],
	flags: READER_FLAGS,
	check: (args) => void positionals(args, ['slug']),
	run: (args, io) =>
		execute(args, io, { operation: 'lookup', slug: positionals(args, ['slug'])[0], ...common(args) }),
};

/** The predicates of `filter` (every --where), or a usage error when there are none or an argument was given instead. */
function whereOf(args: ParsedArgs): string[] {
	if (args.positionals.length > 0)
		throw new UsageError(`unexpected argument "${args.positionals[0]}" (predicates go in --where)`);
	const where = listFlag(args, 'where');
	if (where.length === 0) throw new UsageError('missing --where (e.g. --where status=active)');
	return where;
}

/** `vault-query filter --where field=value …` */
export const filterCommand: Command = {
	name: 'filter',
	summary:
		'schema-strict: notes whose frontmatter meets every --where (typed: >, >=, <, <=, != on numbers and dates)',
	usage: '--where FIELD=VALUE [--where …]',
	examples: [
		'vault-query filter --where domain=investing --min-confidence likely',
		'vault-query filter --where "rating>=7" --folders all --report',
		'vault-query filter --where type=claim --where "last_verified>=2026-06-01" --json',
	],
	flags: {
		...READER_FLAGS,
		where: {
			kind: 'multi',
			value: 'FIELD=VALUE',
			help: 'a predicate: = or != on any field, >, >=, <, <= on number, date and ordered enum fields (repeat for AND)',
		},
	},
	check: (args) => void whereOf(args),
	run: (args, io) => execute(args, io, { operation: 'filter', where: whereOf(args), ...common(args) }),
};

/** `vault-query graph <slug>` */
export const graphCommand: Command = {
	name: 'graph',
	summary:
		"schema-strict: a note's 1-hop links — outbound (vault, skill-library-ref, unresolved) and inbound from the scope",
	usage: '<slug>',
	examples: [
		'vault-query graph dcf-valuation --known-skill-refs excel-modeling',
		'vault-query graph dcf-valuation --report',
	],
	flags: {
		...READER_FLAGS,
		'known-skill-refs': {
			kind: 'list',
			value: 'A,B',
			help: 'link names to tag skill-library-ref instead of unresolved',
		},
		'no-resolve-wikilinks': { kind: 'boolean', help: 'leave out the absolute path of each resolved link' },
	},
	check: (args) => void positionals(args, ['slug']),
	run: (args, io) => {
		const refs = listFlag(args, 'known-skill-refs');
		return execute(args, io, {
			operation: 'graph',
			slug: positionals(args, ['slug'])[0],
			resolve_wikilinks: !boolFlag(args, 'no-resolve-wikilinks'),
			...(refs.length > 0 ? { known_skill_refs: refs } : {}),
			...common(args),
		});
	},
};

/** `vault-query text-search <pattern>` */
export const textSearchCommand: Command = {
	name: 'text-search',
	summary:
		'schema-strict: substring or --regex in note bodies, line numbers and two lines of context, grouped by file',
	usage: '<pattern>',
	examples: [
		'vault-query text-search "discount rate"',
		'vault-query text-search "^## (Steps|Checks)$" --regex --report',
	],
	// grep's switches (from the registry) and its --context: text-search is grep's matcher over the reader's scope.
	flags: { ...READER_FLAGS, ...switchesOf(GREP), context: CONTEXT_FLAG },
	check: (args) => void positionals(args, ['pattern']),
	run: (args, io) =>
		execute(args, io, {
			operation: 'text-search',
			pattern: positionals(args, ['pattern'])[0],
			regex: boolFlag(args, 'regex'),
			case_sensitive: boolFlag(args, 'case-sensitive'),
			...common(args),
		}),
};
