import { hintsBeyond } from '../../core/display';
import type { LinkResult, NoteResult, QueryResult } from '../../core/contract';
import { compileMatcher } from '../../core/text/matcher';
import type { StructuredQuery } from '../../core/query/types';
import { boolFlag, listFlag, numberFlag, positionals, UsageError, type FlagSpec, type ParsedArgs } from '../args';
import { EXIT, limitFlags, type Command, type CommandIO } from '../command';
import { MORE, renderText } from '../render';
import { CONTEXT_FLAG, ENGINE_FLAGS, openEngineForCli } from '../vault';

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
		const compiled = compileMatcher({ pattern: query.pattern, regex: query.regex === true, caseSensitive: query.caseSensitive === true });
		if (!compiled.ok) throw new UsageError(compiled.error);
	}
	const engine = await openEngineForCli(args, io);
	const result: QueryResult<NoteResult> | QueryResult<LinkResult> = await engine.query(query);
	if (boolFlag(args, 'json')) io.stdout(JSON.stringify(result, null, 2));
	else if (result.status !== 'failed') io.stdout(renderText(result, query.type === 'links', { verbose: boolFlag(args, 'verbose'), more: MORE }));
	if (result.status === 'failed') {
		io.stderr(`vault-query ${query.type}: ${result.error ?? 'failed'}`);
		for (const hint of hintsBeyond(result.error, result.suggestions)) io.stderr(`  ${hint}`);
		return EXIT.couldNotSearch;
	}
	return result.results.length > 0 ? EXIT.results : EXIT.nothingMatched;
}

/** The scope options of a structural query from its flags. */
function scopeOf(args: ParsedArgs): { folders?: string[]; limit?: number } {
	const folders = listFlag(args, 'folders');
	const limit = numberFlag(args, 'limit');
	return { ...(folders.length > 0 ? { folders } : {}), ...(limit !== undefined ? { limit } : {}) };
}

/** `vault-query tag <tag>` */
export const tagCommand: Command = {
	name: 'tag',
	summary: 'notes with a tag (nested, case-insensitive, frontmatter and inline)',
	usage: '<tag>',
	examples: ['vault-query tag copilot', 'vault-query tag "#project" --json'],
	flags: SCOPE_FLAGS,
	run: (args, io) => {
		const [tag] = positionals(args, ['tag']);
		return execute(args, io, { type: 'tag', tag, ...scopeOf(args) });
	},
};

/** `vault-query prop <key> [value]` */
export const propCommand: Command = {
	name: 'prop',
	summary: 'notes whose frontmatter property equals (or contains) a value; lists match by membership',
	usage: '<key> [value]  |  <key>=<value>',
	examples: ['vault-query prop status open', 'vault-query prop status=accepted', 'vault-query prop topic assistant --contains', 'vault-query prop owner'],
	flags: { ...SCOPE_FLAGS, contains: { kind: 'boolean', help: 'match when the value contains the text (case-insensitive)' } },
	run: (args, io) => {
		const [first, second] = positionals(args, ['key', 'value'], 1);
		const eq = second === undefined ? first.indexOf('=') : -1;
		const key = eq > 0 ? first.slice(0, eq) : first;
		const value = eq > 0 ? first.slice(eq + 1) : second;
		const match = boolFlag(args, 'contains') ? 'contains' : 'equals';
		return execute(args, io, { type: 'prop', key, ...(value !== undefined ? { value, match } : {}), ...scopeOf(args) });
	},
};

/** `vault-query backlinks <note>` */
export const backlinksCommand: Command = {
	name: 'backlinks',
	summary: 'notes that link to a note, marked body, frontmatter or both',
	usage: '<note>',
	examples: ['vault-query backlinks conventions', 'vault-query backlinks decisions/README.md --json'],
	flags: SCOPE_FLAGS,
	run: (args, io) => {
		const [target] = positionals(args, ['note']);
		return execute(args, io, { type: 'backlinks', target, ...scopeOf(args) });
	},
};

/** `vault-query links <note>` */
export const linksCommand: Command = {
	name: 'links',
	summary: "a note's outgoing links, body and frontmatter, resolved or not",
	usage: '<note>',
	examples: ['vault-query links 2026-06-20-adopt-obsidian-and-ob1-patterns', 'vault-query links Home --json'],
	flags: SCOPE_FLAGS,
	run: (args, io) => {
		const [source] = positionals(args, ['note']);
		return execute(args, io, { type: 'links', source, ...scopeOf(args) });
	},
};

/** `vault-query grep <pattern>` */
export const grepCommand: Command = {
	name: 'grep',
	summary: 'full-text substring or regex search over note bodies, with line numbers and context',
	usage: '<pattern>',
	examples: ['vault-query grep OB1', 'vault-query grep "FFIEC IT Handbook"', 'vault-query grep "^## (Goals|Context)" --regex --case-sensitive'],
	flags: {
		...SCOPE_FLAGS,
		regex: { kind: 'boolean', help: 'treat the pattern as a JavaScript regular expression' },
		'case-sensitive': { kind: 'boolean', help: 'match case exactly (default: case-insensitive)' },
		context: CONTEXT_FLAG,
	},
	run: (args, io) => {
		const [pattern] = positionals(args, ['pattern']);
		return execute(args, io, { type: 'grep', pattern, regex: boolFlag(args, 'regex'), caseSensitive: boolFlag(args, 'case-sensitive'), ...scopeOf(args) });
	},
};
