/**
 * Obsidian CLI handlers (Obsidian 1.12.2+): `obsidian vault-query:search query="…"`,
 * `vault-query:query`, `vault-query:read` and `vault-query:pack`, answering from the plugin's live
 * index with the same JSON as `vault-query <command> --json` (`format=json`) or a short text
 * listing (`format=text`, the default, as in the CLI). Registered only when the running Obsidian
 * has `registerCliHandler`, so the plugin still loads on older versions.
 */
import type { CliData, CliFlags, CliHandler, Plugin } from 'obsidian';
import type { ContextPack, PackRequest } from '../core/pack/pack';
import type { StructuredResult } from '../core/query/run';
import { renderText } from '../core/query/render-text';
import {
	ALL_QUERY_ARGUMENTS,
	PACK,
	QUERY_TYPE_NAMES,
	QUERY_TYPES,
	SEARCH,
	typesTaking,
	type ArgumentValues,
	type OperationOption,
	type OptionValues,
	type RankedOperationSpec,
} from '../core/query/registry';
import type { StructuredQuery } from '../core/query/types';
import {
	READER_OPERATIONS,
	renderReport,
	splitWhereText,
	type ReaderReport,
	type ReaderRequest,
} from '../core/reader/index';
import { renderSearchMarkdown, type SearchResult } from '../core/search/search';
import type { VaultQueryApi } from './api';
import type { PluginEngine } from './plugin-engine';
import { DAY_PATTERN } from '../core/note-date';

/** What the handlers call: the plugin's JSON answers (each already a copy). */
export interface CliHandlerHost {
	search(query: string, options: { limit?: number; folders?: string[] }): Promise<SearchResult>;
	query(query: StructuredQuery): Promise<StructuredResult>;
	read(request: ReaderRequest): Promise<ReaderReport>;
	pack(request: PackRequest): Promise<ContextPack>;
	/** The vault's name or path, for the search listing. */
	vaultPath(): string;
}

/** The host over the plugin's API (JSON copies, gated on readiness) and its engine (for a reader request as given). */
export function cliHost(api: VaultQueryApi, engine: PluginEngine): CliHandlerHost {
	return {
		search: (query, options) => api.search(query, options),
		query: (query) => api.query(query),
		read: (request) => engine.read(request),
		pack: (request) => api.pack(request),
		vaultPath: () => engine.source.vaultPath,
	};
}

/** One handler: its flags and how it turns parsed flags into an answer. */
interface HandlerSpec {
	id: string;
	description: string;
	flags: CliFlags;
	answer(flags: Flags, host: CliHandlerHost): Promise<{ json: object; text: string }>;
}

/** A bad flag: the handler answers with the message instead of a result. */
class FlagError extends Error {}

/** The flags of one call, read with the checks every handler needs. */
class Flags {
	constructor(private readonly data: CliData) {}

	/** A text flag, or undefined. */
	text(name: string): string | undefined {
		const value = this.data[name];
		return value === undefined ? undefined : String(value);
	}

	/** A text flag that must be given. */
	required(name: string): string {
		const value = this.text(name);
		if (value === undefined || value === 'true' || value.trim() === '')
			throw new FlagError(`${name}: required, e.g. ${name}="…"`);
		return value;
	}

	/** A whole-number flag from `min` to `max`. */
	number(name: string, min = 1, max = Number.MAX_SAFE_INTEGER): number | undefined {
		const raw = this.text(name);
		if (raw === undefined) return undefined;
		const value = Number(raw);
		if (!Number.isInteger(value) || value < min)
			throw new FlagError(`${name}: a whole number of at least ${min}, got "${raw}"`);
		if (value > max) throw new FlagError(`${name}: at most ${max}, got ${value}`);
		return value;
	}

	/** A boolean flag: given bare (`regex`) or as `regex=true|false`. */
	bool(name: string): boolean {
		const raw = this.text(name);
		if (raw === undefined || raw === 'false') return false;
		if (raw === 'true') return true;
		throw new FlagError(`${name}: takes no value (or true/false), got "${raw}"`);
	}

	/** A comma-separated list flag (empty when absent). */
	list(name: string): string[] {
		return (this.text(name) ?? '')
			.split(',')
			.map((s) => s.trim())
			.filter((s) => s !== '');
	}
}

const FORMAT: CliFlags = {
	format: {
		value: 'json|text',
		description: 'json: the same object as `vault-query … --json`; text (default): a short listing',
	},
};
const LIMIT = { value: '<n>', description: 'at most n results' };
const FOLDERS = { value: '<a,b>', description: 'only these folders (comma-separated)' };

/** A structural query's results as the CLI and the MCP server list them (quiet footers; `limit=` to see more). */
function structuralText(result: StructuredResult): string {
	if (result.status === 'failed') return `Error: ${result.error ?? 'failed'}`;
	return renderText(result, result.query.type === 'links', { more: 'raise limit= to see more' });
}

/**
 * A ranked operation's flags, derived from its registry entry (`SEARCH`, `PACK`): `query=` for
 * its text and one flag per option, so a new option there is a new flag here with no edit.
 */
function rankedFlags(spec: RankedOperationSpec<'search' | 'pack', unknown>): CliFlags {
	const flags: CliFlags = { query: { value: `<${spec.text.name}>`, description: spec.text.help, required: true } };
	for (const option of spec.options)
		flags[option.name] = {
			...(option.kind === 'flag' ? {} : { value: `<${option.value ?? option.name}>` }),
			description: option.help,
		};
	return { ...flags, ...FORMAT };
}

/** One option's value from the flags, checked as its kind says (numbers whole and within range). */
function optionValue(option: OperationOption, f: Flags): OptionValues[string] {
	if (option.kind === 'flag') return f.bool(option.name) || undefined;
	if (option.kind === 'list') return f.list(option.name).length > 0 ? f.list(option.name) : undefined;
	if (option.kind === 'text') {
		const text = f.text(option.name);
		if (text !== undefined && option.value === 'YYYY-MM-DD' && !DAY_PATTERN.test(text))
			throw new FlagError(`${option.name}: a day (YYYY-MM-DD), got "${text}"`);
		return text;
	}
	return f.number(option.name, option.range?.[0], option.range?.[1]);
}

/** A ranked operation's option values from the flags, by their registry names. */
function rankedValues(spec: RankedOperationSpec<'search' | 'pack', unknown>, f: Flags): OptionValues {
	return Object.fromEntries(spec.options.map((option) => [option.name, optionValue(option, f)]));
}

const HANDLERS: HandlerSpec[] = [
	{
		id: 'search',
		description: `Ranked search: ${SEARCH.summary}`,
		flags: rankedFlags(SEARCH),
		answer: async (f, host) => {
			const call = SEARCH.build(f.required('query'), rankedValues(SEARCH, f));
			const result = await host.search(call.query, {
				limit: f.text('limit') === undefined ? undefined : call.limit,
				folders: call.folders,
			});
			return {
				json: result,
				text:
					result.status === 'failed'
						? `Error: ${result.error ?? 'failed'}`
						: renderSearchMarkdown(result, { vaultLabel: host.vaultPath() }).trimEnd(),
			};
		},
	},
	{
		id: 'query',
		description: `Structural query: type=${QUERY_TYPE_NAMES.join('|')} with ${ALL_QUERY_ARGUMENTS.filter(
			(arg) => arg.kind === 'text',
		)
			.map((arg) => `${arg.name}=`)
			.join(', ')}`,
		flags: {
			type: { value: QUERY_TYPE_NAMES.join('|'), description: 'the kind of query', required: true },
			// One flag per argument any registered type takes (core/query/registry.ts).
			...Object.fromEntries(
				ALL_QUERY_ARGUMENTS.map((arg) => [
					arg.name,
					{
						...(arg.kind === 'text' ? { value: `<${arg.name}>` } : {}),
						description: `type=${typesTaking(arg.name).join('|')}: ${arg.help}`,
					},
				]),
			),
			folders: FOLDERS,
			limit: LIMIT,
			...FORMAT,
		},
		answer: async (f, host) => {
			const type = f.required('type');
			const spec = QUERY_TYPES.find((s) => s.type === type);
			if (!spec) throw new FlagError(`type: one of ${QUERY_TYPE_NAMES.join(', ')} — got "${type}"`);
			const values: ArgumentValues = {};
			for (const arg of spec.args)
				values[arg.name] =
					arg.kind === 'flag' ? f.bool(arg.name) : arg.required ? f.required(arg.name) : f.text(arg.name);
			const scope = {
				...(f.list('folders').length > 0 ? { folders: f.list('folders') } : {}),
				...(f.number('limit') !== undefined ? { limit: f.number('limit') } : {}),
			};
			const result = await host.query({ ...spec.build(values), ...scope });
			return { json: result, text: structuralText(result) };
		},
	},
	{
		id: 'read',
		description:
			'Schema-strict read: operation=lookup|filter|graph|text-search with slug=, where=, pattern= and a retrieval report',
		flags: {
			operation: { value: READER_OPERATIONS.join('|'), description: 'the reader operation', required: true },
			slug: { value: '<slug>', description: 'lookup|graph: the note file name without .md' },
			where: {
				value: '<field=value;…>',
				description: 'filter: predicates separated by spaces or ; (=, !=, >, >=, <, <=)',
			},
			pattern: { value: '<text>', description: 'text-search: the text or regex' },
			regex: { description: 'text-search: pattern is a regular expression' },
			'case-sensitive': { description: 'text-search: match case exactly' },
			folders: { value: '<a,b|all>', description: 'folders to search, or all' },
			'max-results': LIMIT,
			'full-body': { description: "include each result's whole body" },
			'include-archived': { description: 'keep archived notes' },
			'min-confidence': { value: '<level>', description: 'keep notes this confident or more' },
			...FORMAT,
		},
		answer: async (f, host) => {
			const given = f.required('operation');
			const operation = READER_OPERATIONS.find((op) => op === given);
			if (operation === undefined)
				throw new FlagError(`operation: one of ${READER_OPERATIONS.join(', ')} — got "${given}"`);
			const request: ReaderRequest = {
				operation,
				full_body: f.bool('full-body'),
				include_archived: f.bool('include-archived'),
			};
			if (operation === 'lookup' || operation === 'graph') request.slug = f.required('slug');
			if (operation === 'filter')
				request.where = f
					.required('where')
					.split(';')
					.flatMap((part) => splitWhereText(part));
			if (operation === 'text-search')
				Object.assign(request, {
					pattern: f.required('pattern'),
					regex: f.bool('regex'),
					case_sensitive: f.bool('case-sensitive'),
				});
			if (f.list('folders').length > 0) request.folders = f.list('folders');
			const max = f.number('max-results');
			if (max !== undefined) request.max_results = max;
			const confidence = f.text('min-confidence');
			if (confidence !== undefined) request.min_confidence = confidence;
			const report = await host.read(request);
			return { json: report, text: renderReport(report) };
		},
	},
	{
		id: 'pack',
		description: `Context pack: ${PACK.summary}`,
		flags: rankedFlags(PACK),
		answer: async (f, host) => {
			const pack = await host.pack(PACK.build(f.required('query'), rankedValues(PACK, f)));
			return {
				json: pack,
				text: pack.status === 'failed' ? `Error: ${pack.error ?? 'failed'}` : pack.markdown.trimEnd(),
			};
		},
	},
];

/** Answers one CLI call: checks the flags (unknown ones are errors naming them), runs, renders. */
async function respond(spec: HandlerSpec, data: CliData, host: CliHandlerHost): Promise<string> {
	try {
		for (const name of Object.keys(data)) {
			if (!(name in spec.flags))
				throw new FlagError(
					`unknown flag "${name}"; vault-query:${spec.id} takes ${Object.keys(spec.flags).join(', ')}`,
				);
		}
		const flags = new Flags(data);
		const format = flags.text('format') ?? 'text';
		if (format !== 'json' && format !== 'text') throw new FlagError(`format: json or text, got "${format}"`);
		const { json, text } = await spec.answer(flags, host);
		return format === 'json' ? JSON.stringify(json, null, 2) : text;
	} catch (error) {
		if (error instanceof FlagError) return `Error: ${error.message}`;
		throw error;
	}
}

/** `Plugin#registerCliHandler` (Obsidian 1.12.2+), typed here because it may be missing at run time. */
type RegisterCliHandler = (command: string, description: string, flags: CliFlags | null, handler: CliHandler) => void;

/** The `vault-query:*` command ids this registers (for docs and tests). */
export const CLI_COMMANDS = HANDLERS.map((h) => `vault-query:${h.id}`);

/**
 * Registers the four handlers when `plugin.registerCliHandler` exists (Obsidian 1.12.2+);
 * returns whether it did. The typings declare the method unconditionally, hence the check.
 */
export function registerCliHandlers(plugin: Plugin, host: CliHandlerHost): boolean {
	// Feature detection, so minAppVersion stays 1.4.0: older Obsidian has no such method.
	const register = (plugin as unknown as { registerCliHandler?: RegisterCliHandler }).registerCliHandler;
	if (typeof register !== 'function') return false;
	for (const spec of HANDLERS)
		register.call(plugin, `vault-query:${spec.id}`, spec.description, spec.flags, (data: CliData) =>
			respond(spec, data, host),
		);
	return true;
}
