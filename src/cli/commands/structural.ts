import type { LinkResult, NoteResult, QueryResult } from '../../core/contract';
import { compileMatcher } from '../../core/text/matcher';
import { QUERY_TYPES, type ArgumentValues, type QueryType, type QueryTypeSpec } from '../../core/query/registry';
import type { StructuredQuery } from '../../core/query/types';
import { boolFlag, listFlag, numberFlag, positionals, UsageError, type FlagSpec, type ParsedArgs } from '../args';
import { emitAnswer, limitFlags, MORE, type Command, type CommandIO } from '../command';
import { renderText } from '../../core/query/render-text';
import { CONTEXT_FLAG, ENGINE_FLAGS, openCliVault } from '../vault';
import { STREAM_ABOVE, streamGrep } from '../stream';

/** Flags the five structural commands share. */
const SCOPE_FLAGS: Record<string, FlagSpec> = {
	...limitFlags(20),
	folders: { kind: 'list', value: 'A,B', help: 'search only these folders (repeatable or comma-separated)' },
	sort: { kind: 'string', value: 'ORDER', help: 'order results by path (default), mtime (newest first) or title' },
	...ENGINE_FLAGS,
};

/** Open the vault, run the query, print, and map the outcome to the exit code. */
async function execute(args: ParsedArgs, io: CommandIO, query: StructuredQuery): Promise<number> {
	// A bad pattern is the caller's mistake: say so before reading a single file of the vault.
	if (query.type === 'grep') {
		const compiled = compileMatcher({
			pattern: query.pattern,
			regex: query.regex === true,
			caseSensitive: query.caseSensitive === true,
		});
		if (!compiled.ok) throw new UsageError(compiled.error);
	}
	const { engine } = await openCliVault(args, io);
	// A full answer (what rg gives) is written as it is found, never held whole.
	if (query.type === 'grep' && (query.limit ?? 0) > STREAM_ABOVE) return streamGrep(args, io, engine, query);
	// One process, one source: the link graph is built once and shared, and a grep stops past its limit (as in the MCP server).
	const result: QueryResult<NoteResult> | QueryResult<LinkResult> = await engine.query(query, {
		reuseGraph: true,
		stopAtLimit: true,
	});
	return emitAnswer(
		args,
		io,
		query.type,
		result,
		() => renderText(result, query.type === 'links', { verbose: boolFlag(args, 'verbose'), more: MORE }),
		result.results.length > 0,
	);
}

/** The scope options of a structural query from its flags. */
function scopeOf(args: ParsedArgs): { folders?: string[]; limit?: number } {
	const folders = listFlag(args, 'folders');
	const limit = numberFlag(args, 'limit');
	return { ...(folders.length > 0 ? { folders } : {}), ...(limit !== undefined ? { limit } : {}) };
}

/** What only the CLI says about a query type: its examples, and a second spelling of its arguments. */
interface CliExtras {
	examples: string[];
	/** Extra usage after the positionals (`|  <key>=<value>`). */
	usageNote?: string;
	/** The positional values, when one positional may hold two (`prop status=open`). */
	split?(positionals: string[]): string[];
	/** Flags of the CLI's own rendering (grep's `--context`). */
	flags?: Record<string, FlagSpec>;
}

const CLI_EXTRAS: Record<QueryType, CliExtras> = {
	tag: { examples: ['vault-query tag copilot', 'vault-query tag "#project" --json'] },
	prop: {
		examples: [
			'vault-query prop status open',
			'vault-query prop status=accepted',
			'vault-query prop topic assistant --contains',
			'vault-query prop owner',
		],
		usageNote: '|  <key>=<value>',
		split: ([first, second]) => {
			if (first === undefined) throw new UsageError('missing <key>');
			const eq = second === undefined ? first.indexOf('=') : -1;
			// `=x` names no property, as an empty key does not: a usage error, not a search for a key called "=x".
			if (eq === 0) throw new UsageError(`<key> is empty in "${first.slice(0, 40)}"; write <key>=<value>`);
			return eq > 0
				? [first.slice(0, eq), first.slice(eq + 1)]
				: second === undefined
					? [first]
					: [first, second];
		},
	},
	backlinks: { examples: ['vault-query backlinks conventions', 'vault-query backlinks decisions/README.md --json'] },
	links: {
		examples: ['vault-query links sdlc-modernization', 'vault-query links Home --json'],
	},
	grep: {
		examples: [
			'vault-query grep "prompt retention"',
			'vault-query grep "FFIEC IT Handbook"',
			'vault-query grep "^## (Goals|Context)" --regex --case-sensitive',
		],
		flags: { context: CONTEXT_FLAG },
	},
};

/** The on/off arguments of a query type as CLI flags (`--contains`, `--regex`, `--case-sensitive`). */
export function switchesOf(spec: QueryTypeSpec): Record<string, FlagSpec> {
	return Object.fromEntries(
		spec.args
			.filter((arg) => arg.kind === 'flag')
			.map((arg) => [arg.name, { kind: 'boolean', help: arg.help } satisfies FlagSpec]),
	);
}

/** `vault-query <type> …` for one registered query type: text arguments are positionals, flag arguments are flags. */
function structuralCommand(spec: QueryTypeSpec): Command {
	const texts = spec.args.filter((arg) => arg.kind === 'text');
	const extras = CLI_EXTRAS[spec.type];
	const flags: Record<string, FlagSpec> = { ...SCOPE_FLAGS, ...switchesOf(spec), ...extras.flags };
	const givenOf = (args: ParsedArgs): string[] =>
		positionals(
			args,
			texts.map((arg) => arg.name),
			texts.filter((arg) => !arg.required).length,
		);
	return {
		name: spec.type,
		summary: spec.summary,
		usage: [
			...texts.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)),
			...(extras.usageNote ? [` ${extras.usageNote}`] : []),
		].join(' '),
		examples: extras.examples,
		flags,
		check: (args) => void givenOf(args),
		run: (args, io) => {
			const given = givenOf(args);
			const values: ArgumentValues = {};
			(extras.split ? extras.split(given) : given).forEach((value, i) => (values[texts[i]!.name] = value));
			for (const arg of spec.args) if (arg.kind === 'flag') values[arg.name] = boolFlag(args, arg.name);
			return execute(args, io, { ...spec.build(values), ...scopeOf(args) });
		},
	};
}

/** The structural commands, one per registered query type, in the registry's order. */
export const STRUCTURAL_COMMANDS: Command[] = QUERY_TYPES.map(structuralCommand);
