import type { StructuredQuery } from '../core/query/types';
import { PACK, QUERY_TYPES, RANKED_OPERATIONS, SEARCH } from '../core/query/registry';
import { QUERY_COMMANDS } from './query-commands';

/**
 * The `vault-query` code block's syntax: `key: value` lines. One line names what to show —
 *
 * | Key | Shows |
 * |---|---|
 * | `search:` | ranked hits, with the search modal's syntax (`tag:`, `[key:value]`, `backlinks:`, `"…"`, `-word`, `/regex/`) |
 * | `tag:` | notes with a tag (nested tags too) |
 * | `property:` | `key`, `key=value` or `key~text` |
 * | `backlinks:` | notes linking to a note (`this`: the note holding the block) |
 * | `links:` | a note's outgoing links (`this` too) |
 * | `grep:` | lines holding a text, or matching `/regex/` |
 * | `pack:` | a context pack for a question |
 *
 * — and options may follow: `limit:` (results), `budget:` (pack tokens), `folders:` (comma
 * separated, structural queries). A first line without a key (or starting with the search
 * operators `path:`, `file:`, `content:`) is a search. Blank lines are ignored. Anything else is
 * an error the block shows, naming the line.
 */

/** What a block asks for. */
export type BlockSpec =
	| { kind: 'search'; query: string; limit?: number }
	| { kind: 'structural'; query: StructuredQuery; title: string }
	| { kind: 'pack'; question: string; budget?: number };

/** A block that cannot run, and why. */
export interface BlockError {
	kind: 'error';
	message: string;
}

/** Block keys of the registered query types: each type's name and its aliases (`property:` for `prop`). */
export const BLOCK_QUERY_KEYS = new Map(
	QUERY_TYPES.flatMap((spec) => [spec.type, ...spec.aliases].map((key) => [key, spec] as const)),
);
/** Block keys of the ranked operations (`search:`, `pack:`). */
const RANKED_KEYS = new Set<string>(RANKED_OPERATIONS.map((op) => op.name));
// Options: a structural query's scope (`limit:`, `folders:`) and the ranked operations' number and
// list options (`limit:`, `folders:`, `budget:`); a block takes no text or on/off options.
const OPTION_KEYS = new Set([
	'limit',
	'folders',
	...RANKED_OPERATIONS.flatMap((op) =>
		op.options.filter((o) => o.kind === 'number' || o.kind === 'list').map((o) => o.name),
	),
]);
// Search operators that are not block keys: a first line starting with one is a bare search.
const SEARCH_OPERATORS = new Set(['path', 'file', 'content']);

/** The syntax in one line, for error messages. */
export const BLOCK_SYNTAX = `Write one of ${SEARCH.name}:, ${QUERY_TYPES.map((spec) => `${spec.aliases[0] ?? spec.type}:`).join(', ')} or ${PACK.name}:, then optionally ${[
	...OPTION_KEYS,
]
	.map((key) => `${key}:`)
	.join(', ')
	.replace(/, ([^,]*)$/, ' or $1')}.`;

function fail(message: string): BlockError {
	return { kind: 'error', message };
}

/** The note path without `.md`, the way a wikilink names it. */
function linkName(path: string): string {
	return path.replace(/\.md$/i, '');
}

/** Parses a block's text; `sourcePath` is the note holding it (for `this`). */
export function parseBlock(text: string, sourcePath: string): BlockSpec | BlockError {
	let main: { key: string; value: string; line: number } | null = null;
	const options = new Map<string, string>();
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!.trim();
		if (line === '') continue;
		const m = /^([A-Za-z-]+):(.*)$/.exec(line);
		const key = m ? m[1]!.toLowerCase() : '';
		if (!m || !(BLOCK_QUERY_KEYS.has(key) || RANKED_KEYS.has(key) || OPTION_KEYS.has(key))) {
			if (main === null && options.size === 0 && (!m || SEARCH_OPERATORS.has(key))) {
				main = { key: SEARCH.name, value: line, line: i + 1 };
				continue;
			}
			return fail(
				m
					? `Line ${i + 1}: unknown key "${m[1]}". ${BLOCK_SYNTAX}`
					: `Line ${i + 1}: expected "key: value". ${BLOCK_SYNTAX}`,
			);
		}
		const value = m[2]!.trim();
		if (OPTION_KEYS.has(key)) {
			options.set(key, value);
			continue;
		}
		if (main !== null)
			return fail(`Line ${i + 1}: one block shows one thing, but it asks for both ${main.key}: and ${key}:.`);
		main = { key, value, line: i + 1 };
	}
	if (main === null) return fail(`The block is empty. ${BLOCK_SYNTAX}`);
	if (main.value === '') return fail(`Line ${main.line}: ${main.key}: needs a value.`);
	const whole = (name: string): number | undefined | BlockError => {
		const raw = options.get(name);
		if (raw === undefined) return undefined;
		const n = Number(raw);
		return Number.isInteger(n) && n >= 1 ? n : fail(`${name}: must be a whole number of at least 1, got "${raw}".`);
	};
	const limit = whole('limit');
	const budget = whole('budget');
	if (typeof limit === 'object') return limit;
	if (typeof budget === 'object') return budget;
	if (main.key === SEARCH.name || main.key === PACK.name) {
		const request = main.key === SEARCH.name ? SEARCH.fromText(main.value) : PACK.fromText(main.value);
		if (typeof request === 'string') return fail(`Line ${main.line}: ${request}`);
		return main.key === SEARCH.name
			? { kind: 'search', query: request.query, limit }
			: { kind: 'pack', question: request.query, budget };
	}
	const spec = BLOCK_QUERY_KEYS.get(main.key);
	const rendering = QUERY_COMMANDS.find((c) => c.type === spec?.type);
	if (!spec || !rendering) return fail(`${main.key}: is not a query. ${BLOCK_SYNTAX}`);
	// `this`: the note holding the block, for the types that take a note.
	const value =
		main.value === 'this' && spec.args.some((arg) => arg.name === 'note') ? linkName(sourcePath) : main.value;
	const parsed = spec.fromText(value);
	if (typeof parsed === 'string') return fail(`Line ${main.line}: ${parsed}`);
	const folders = options.get('folders');
	const query: StructuredQuery = {
		...parsed,
		...(limit === undefined ? {} : { limit }),
		...(folders === undefined
			? {}
			: {
					folders: folders
						.split(',')
						.map((f) => f.trim())
						.filter((f) => f !== ''),
				}),
	};
	return { kind: 'structural', query, title: rendering.title(query) };
}
