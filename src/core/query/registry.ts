import { DEFAULT_BUDGET, type PackRequest } from '../pack/types';
import type { StructuredQuery } from './types';

/**
 * The one registry of structural query types (issue 9). The CLI commands, the Obsidian CLI
 * `vault-query:query` handler, the MCP `query` tool, the plugin's palette prompts and the
 * `vault-query` code block all derive their list of types, their arguments and the query they
 * build from here; each face keeps only its own rendering (examples, placeholders, titles).
 * A new query type is one entry here, its module under core/query/, and those renderings —
 * the compiler asks for each (faces key their extras by {@link QueryType}).
 */

/** The name of a structural query type. */
export type QueryType = StructuredQuery['type'];

/** One argument of a query type, named the same in every face (MCP spells `-` as `_`). */
export interface QueryArgument {
	name: string;
	/** `text`: a value (CLI positional, `name=` flag, MCP string); `flag`: on or off. */
	kind: 'text' | 'flag';
	required: boolean;
	/** One line of help, without the type it belongs to. */
	help: string;
}

/** The values of a call's arguments, by argument name (absent: not given). */
export type ArgumentValues = Record<string, string | boolean | undefined>;

/** One query type: what it finds, what it takes, which engine call answers it, how its query is built. */
export interface QueryTypeSpec {
	type: QueryType;
	/** One line for the CLI command list and the faces' descriptions. */
	summary: string;
	/** Other words a face may accept for the type (the code block's `property:`). */
	aliases: readonly string[];
	/** The arguments, required text ones first, in CLI positional order. */
	args: readonly QueryArgument[];
	/** The engine method that answers the type (`VaultEngine.query`). */
	answeredBy: 'query';
	/** The query from argument values whose required ones are present and not blank. */
	build(values: ArgumentValues): StructuredQuery;
	/**
	 * The one-line argument syntax the palette prompt and the code block share: `#tag`,
	 * `key`, `key=value`, `key~text`, a note name, `text` or `/regex/`. A string is what is wrong.
	 */
	fromText(input: string): StructuredQuery | string;
	/** An argument line `fromText` accepts, for help and the reachability test. */
	example: string;
}

const NOTE: QueryArgument = {
	name: 'note',
	kind: 'text',
	required: true,
	help: 'the note, by name ("Home") or vault path ("folder/Home.md")',
};

/** A text value as given (flags are not text). */
function text(values: ArgumentValues, name: string): string | undefined {
	const value = values[name];
	return typeof value === 'string' ? value : undefined;
}

/** `key=value` (equals), `key~value` (contains) or `key` (present): the split, at the first `=` or `~`. */
export function splitPropertyArgument(input: string): { key: string; op?: '=' | '~'; value?: string } {
	const at = input.search(/[=~]/);
	if (at < 0) return { key: input.trim() };
	return { key: input.slice(0, at).trim(), op: input[at] === '=' ? '=' : '~', value: input.slice(at + 1).trim() };
}

/** `/pattern/` is a regular expression; anything else is literal text. */
export function parseGrepArgument(input: string): { pattern: string; regex: boolean } {
	const trimmed = input.trim();
	if (trimmed.length > 2 && trimmed.startsWith('/') && trimmed.endsWith('/'))
		return { pattern: trimmed.slice(1, -1), regex: true };
	return { pattern: input, regex: false };
}

/** A type whose one argument is a note (backlinks to it, links from it). */
function aboutNote(type: 'backlinks' | 'links', summary: string): QueryTypeSpec {
	const query = (note: string): StructuredQuery =>
		type === 'backlinks' ? { type, target: note } : { type, source: note };
	return {
		type,
		summary,
		aliases: [],
		args: [NOTE],
		answeredBy: 'query',
		build: (v) => query(text(v, 'note') ?? ''),
		fromText: (input) => (input.trim() === '' ? 'Type the name of a note.' : query(input.trim())),
		example: 'Home',
	};
}

/** Every structural query type, in the order the faces list them. */
export const QUERY_TYPES: readonly QueryTypeSpec[] = [
	{
		type: 'tag',
		summary: 'notes with a tag (nested, case-insensitive, frontmatter and inline)',
		aliases: [],
		args: [
			{
				name: 'tag',
				kind: 'text',
				required: true,
				help: 'the tag, with or without # (nested tags match: #project matches #project/alpha)',
			},
		],
		answeredBy: 'query',
		build: (v) => ({ type: 'tag', tag: text(v, 'tag') ?? '' }),
		fromText: (input) =>
			input.trim().replace(/^#+/, '') === '' ? 'Type a tag to look for.' : { type: 'tag', tag: input.trim() },
		example: '#project',
	},
	{
		type: 'prop',
		summary: 'notes whose frontmatter property equals (or contains) a value; lists match by membership',
		aliases: ['property'],
		args: [
			{ name: 'key', kind: 'text', required: true, help: 'the frontmatter property name' },
			{
				name: 'value',
				kind: 'text',
				required: false,
				help: 'the value to match (omit to find notes that have the property at all)',
			},
			{
				name: 'contains',
				kind: 'flag',
				required: false,
				help: 'match when the value contains the text (case-insensitive)',
			},
		],
		answeredBy: 'query',
		build: (v) => {
			const value = text(v, 'value');
			return {
				type: 'prop',
				key: text(v, 'key') ?? '',
				...(value !== undefined ? { value, match: v.contains === true ? 'contains' : 'equals' } : {}),
			};
		},
		fromText: (input) => {
			const arg = splitPropertyArgument(input);
			if (arg.key === '') return 'Type a property name, optionally followed by =value or ~text.';
			if (arg.op === undefined || arg.value === '') return { type: 'prop', key: arg.key };
			return { type: 'prop', key: arg.key, value: arg.value, match: arg.op === '~' ? 'contains' : 'equals' };
		},
		example: 'status=open',
	},
	aboutNote('backlinks', 'notes that link to a note, marked body, frontmatter or both'),
	aboutNote('links', "a note's outgoing links, body and frontmatter, resolved or not"),
	{
		type: 'grep',
		summary: 'full-text substring or regex search over note bodies, with line numbers and context',
		aliases: [],
		args: [
			{
				name: 'pattern',
				kind: 'text',
				required: true,
				help: 'the text to find (a JavaScript regular expression with regex)',
			},
			{
				name: 'regex',
				kind: 'flag',
				required: false,
				help: 'treat the pattern as a JavaScript regular expression',
			},
			{
				name: 'case-sensitive',
				kind: 'flag',
				required: false,
				help: 'match case exactly (default: case-insensitive)',
			},
		],
		answeredBy: 'query',
		build: (v) => ({
			type: 'grep',
			pattern: text(v, 'pattern') ?? '',
			regex: v.regex === true,
			caseSensitive: v['case-sensitive'] === true,
		}),
		fromText: (input) => {
			if (input.trim() === '') return 'Type the text to search for.';
			const { pattern, regex } = parseGrepArgument(input);
			return regex ? { type: 'grep', pattern, regex: true } : { type: 'grep', pattern };
		},
		example: '/^## Goals/',
	},
];

/** The spec of a registered type (every {@link QueryType} has one). */
export function specOf(type: QueryType): QueryTypeSpec {
	const spec = QUERY_TYPES.find((s) => s.type === type);
	if (!spec) throw new Error(`query type "${type}" is not registered`);
	return spec;
}

/** The grep type, whose switches the reader's text search shares. */
export const GREP = specOf('grep');

/** The registered type names, in order. */
export const QUERY_TYPE_NAMES = QUERY_TYPES.map((spec) => spec.type) as [QueryType, ...QueryType[]];

/** The spec of a type name or alias, or undefined. */
export function queryTypeOf(name: string): QueryTypeSpec | undefined {
	const lower = name.toLowerCase();
	return QUERY_TYPES.find((spec) => spec.type === lower || spec.aliases.includes(lower));
}

/** Every argument name any type takes, each once (a face rejects those a type does not take). */
export const ALL_QUERY_ARGUMENTS: readonly QueryArgument[] = [
	...new Map(QUERY_TYPES.flatMap((spec) => spec.args.map((arg) => [arg.name, arg] as const))).values(),
];

/** The types that take an argument, for a face's "type=…: help" line. */
export function typesTaking(name: string): QueryType[] {
	return QUERY_TYPES.filter((spec) => spec.args.some((arg) => arg.name === name)).map((spec) => spec.type);
}

/** The first required argument of a spec that is missing or blank, or null. */
export function missingArgument(spec: QueryTypeSpec, values: ArgumentValues): string | null {
	for (const arg of spec.args) {
		if (!arg.required) continue;
		const value = values[arg.name];
		if (typeof value !== 'string' || value.trim() === '') return arg.name;
	}
	return null;
}

/**
 * The ranked operations: free text in, ranked hits (`search`) or a cited context pack (`pack`)
 * out. They sit beside the structural types rather than among them because they take a whole
 * line of text (the search syntax, a question) instead of typed arguments, answer through their
 * own engine method with their own result object (not `QueryResult`), and are not values of the
 * `query` tools' `type` (MCP, Obsidian CLI) — but their names, summaries, options and the request
 * they build live here all the same, and the CLI commands, the code block and the plugin's pack
 * prompt derive from these entries.
 */

/** An option of a ranked operation, named the same in every face that offers it. */
export interface OperationOption {
	name: string;
	/** `number`: a whole number within `range`; `list`: several values; `text`: one value; `flag`: on or off. */
	kind: 'number' | 'list' | 'text' | 'flag';
	/** The placeholder of its value in help (`N`, `A,B`, `TEXT`). */
	value?: string;
	/** The smallest and largest value of a number option. */
	range?: readonly [number, number];
	/** One line of help. */
	help: string;
}

/** The values of a ranked call's options, by option name (absent: not given). */
export type OptionValues = Record<string, string | number | boolean | string[] | undefined>;

/** What a search call asks the engine (`VaultEngine.search(query, { limit, folders })`). */
export interface SearchCall {
	query: string;
	limit: number;
	folders?: string[];
}

/** One ranked operation: what it answers, its text and options, and the request it builds. */
export interface RankedOperationSpec<Name extends 'search' | 'pack', Request> {
	name: Name;
	/** One line for the CLI command list and the faces' descriptions. */
	summary: string;
	/** The engine method that answers it. */
	answeredBy: Name;
	/** The free text it takes (the rest of the line: CLI positionals, the block's value). */
	text: { name: string; help: string };
	/** Its options, in the order help lists them. */
	options: readonly OperationOption[];
	/** The request for a non-blank text and the options given. */
	build(text: string, values: OptionValues): Request;
	/** The request for a line of text alone (prompt, code block), or what is wrong with it. */
	fromText(input: string): Request | string;
}

/** Search's default number of hits when a face gives none (the CLI's `--limit`). */
export const SEARCH_LIMIT = 10;
const LIMIT_RANGE: readonly [number, number] = [1, 100_000];

/** A number option's value, if given. */
function numberOf(values: OptionValues, name: string): number | undefined {
	const value = values[name];
	return typeof value === 'number' ? value : undefined;
}

/** `search`: ranked hits for the search syntax. */
export const SEARCH: RankedOperationSpec<'search', SearchCall> = {
	name: 'search',
	summary:
		'ranked search in any language: filters (tag:, path:, file:, [key:value], "phrase", -word, /regex/) plus free text',
	answeredBy: 'search',
	text: {
		name: 'query',
		help: 'what to find: words in any language and the search filters (tag:#x, path:folder, file:name, [key:value], "exact phrase", -word, /regex/)',
	},
	options: [
		{
			name: 'limit',
			kind: 'number',
			value: 'N',
			range: LIMIT_RANGE,
			help: `at most N results (default ${SEARCH_LIMIT})`,
		},
		{
			name: 'folders',
			kind: 'list',
			value: 'A,B',
			help: 'search only these folders (repeatable or comma-separated)',
		},
	],
	build: (query, values) => {
		const folders = values.folders;
		return {
			query,
			limit: numberOf(values, 'limit') ?? SEARCH_LIMIT,
			...(Array.isArray(folders) && folders.length > 0 ? { folders } : {}),
		};
	},
	// A /regex/ that does not compile is the search's own answer (failed, with the reason), not a prompt error.
	fromText: (input) =>
		input.trim() === '' ? 'Type what to search for.' : { query: input.trim(), limit: SEARCH_LIMIT },
};

/** `pack`: a cited context pack for a question, within a token budget. */
export const PACK: RankedOperationSpec<'pack', PackRequest> = {
	name: 'pack',
	summary:
		'a context pack for an agent: verbatim quotes with source ids, coverage, gaps and a handoff, within a token budget',
	answeredBy: 'pack',
	text: {
		name: 'query',
		help: 'the question, in any language; may name [[Note#Heading]] or ^block-id sections and use search filters',
	},
	options: [
		{
			name: 'budget',
			kind: 'number',
			value: 'N',
			range: [1, 1_000_000],
			help: `token budget of the whole pack (default ${DEFAULT_BUDGET}; the handoff says when the default was used)`,
		},
		{ name: 'task', kind: 'text', value: 'TEXT', help: "the downstream agent's task, passed on in the handoff" },
		{ name: 'include-drafts', kind: 'flag', help: 'keep notes with status: draft' },
		{
			name: 'include-archived',
			kind: 'flag',
			help: 'keep archived notes (status archived/archive, archived: true, #archive tags)',
		},
		{ name: 'today', kind: 'text', value: 'YYYY-MM-DD', help: "the handoff's built_at (default: today, UTC)" },
		{
			name: 'base',
			kind: 'text',
			value: 'FILE#VIEW',
			help: 'quote only the notes of a base view\'s rows, e.g. "Books.base#Top rated" (default: any note)',
		},
	],
	build: (query, values) => ({
		query,
		budget: numberOf(values, 'budget'),
		task: typeof values.task === 'string' ? values.task : undefined,
		// why: an option not given leaves the choice to the settings, not to false.
		includeDrafts: values['include-drafts'] === true || undefined,
		includeArchived: values['include-archived'] === true || undefined,
		builtAt: typeof values.today === 'string' ? values.today : undefined,
		base: typeof values.base === 'string' ? values.base : undefined,
	}),
	fromText: (input) => (input.trim() === '' ? 'Type a question for the context pack.' : { query: input.trim() }),
};

/** The ranked operations, in the order the faces list them after the structural types. */
export const RANKED_OPERATIONS = [SEARCH, PACK] as const;
