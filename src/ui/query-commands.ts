import { baseName, folderOf } from '../core/paths';
import { getAllTags } from '../core/obsidian-rules';
import type { NoteSource } from '../core/port';
import { normalizeTag } from '../core/query/tag';
import { QUERY_TYPES, splitPropertyArgument, type QueryType } from '../core/query/registry';
import type { StructuredQuery } from '../core/query/types';
import { plural } from './dom';

/**
 * The plugin's structural-query commands, one per registered query type (core/query/registry.ts),
 * as data: how each names itself, reads its one argument from the prompt (the registry's one-line
 * syntax), and what it can suggest while the user types. The command palette
 * wiring lives in main.ts; the prompt in query-prompt.ts; nothing here touches the DOM.
 */

/** One thing the prompt can offer for the argument (`value` is what gets parsed). */
export interface ArgumentChoice {
	value: string;
	label: string;
	/** A second, muted line (a note's folder, "search for this"). */
	note?: string;
}

/** What a command needs from the plugin to prepare its prompt. */
export interface CommandContext {
	source: NoteSource;
	/** The vault path of the note in the active editor, if any. */
	activePath: string | null;
}

/** One structural query as a palette command. */
export interface QueryCommandSpec extends PromptRendering {
	/** The registered query type the command runs (core/query/registry.ts). */
	type: QueryType;
	/** The query for an argument, or a message saying what is wrong with it (the registry's one-line syntax). */
	parse(input: string): StructuredQuery | string;
}

/** What only the palette says about a query type: its command, its prompt, its suggestions, its results title. */
interface PromptRendering {
	/** Command id (Obsidian prefixes it with the plugin id). */
	id: string;
	/** Command name, sentence case, without the plugin name. */
	name: string;
	/** Placeholder of the prompt's input. */
	placeholder: string;
	/** One-line syntax help shown under the prompt. */
	help: string;
	/** Pre-filled argument (backlinks/links: the active note). */
	initialInput(ctx: CommandContext): string;
	/** Values the user may pick, before filtering by what they typed. */
	candidates(ctx: CommandContext, input: string): ArgumentChoice[];
	/** Inputs with the same scope share one candidate list (default: one list per prompt). */
	candidateScope?(input: string): string;
	/** The results modal's title for a query. */
	title(query: StructuredQuery): string;
}

/** The note path without its `.md`, the way a wikilink names a note. */
function linkName(path: string): string {
	return path.toLowerCase().endsWith('.md') ? path.slice(0, -3) : path;
}

function noteChoices(source: NoteSource): ArgumentChoice[] {
	return source.listNotes().map((path) => {
		const folder = folderOf(path);
		return { value: linkName(path), label: baseName(path), note: folder === '' ? undefined : folder };
	});
}

/** Tags in the vault (frontmatter and inline, Obsidian's rules), in the form tag queries compare, with counts. */
function vaultTags(source: NoteSource): Map<string, number> {
	const counts = new Map<string, number>();
	for (const path of source.listNotes()) {
		const meta = source.getMetadata(path);
		if (!meta) continue;
		for (const raw of getAllTags(meta)) {
			const tag = normalizeTag(raw);
			counts.set(tag, (counts.get(tag) ?? 0) + 1);
		}
	}
	return counts;
}

/** Frontmatter keys in the vault, with how many notes use each. */
function vaultKeys(source: NoteSource): Map<string, number> {
	const counts = new Map<string, number>();
	for (const path of source.listNotes()) {
		for (const key of Object.keys(source.getMetadata(path)?.frontmatter ?? {}))
			counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
}

/** The scalar values a key takes across the vault (list members count one by one). */
function vaultValues(source: NoteSource, key: string): Map<string, number> {
	const counts = new Map<string, number>();
	const add = (value: unknown): void => {
		if (Array.isArray(value)) value.forEach(add);
		else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
			const text = String(value);
			if (text.trim() !== '') counts.set(text, (counts.get(text) ?? 0) + 1);
		}
	};
	for (const path of source.listNotes()) {
		const fm = source.getMetadata(path)?.frontmatter;
		if (fm && key in fm) add(fm[key]);
	}
	return counts;
}

/** Most used first, then alphabetical. */
function byUse(counts: Map<string, number>): string[] {
	return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([value]) => value);
}

/** The prompt of a query about one note: its name or path, the active note to begin with. */
const NOTE_PROMPT: Pick<PromptRendering, 'placeholder' | 'initialInput' | 'candidates'> = {
	placeholder: 'Note name or path',
	initialInput: ({ activePath }) => (activePath === null ? '' : linkName(activePath)),
	candidates: ({ source }) => noteChoices(source),
};

/** The palette's rendering of each registered type. */
const PROMPTS: Record<QueryType, PromptRendering> = {
	tag: {
		id: 'find-notes-by-tag',
		name: 'Find notes by tag',
		placeholder: 'Tag, e.g. #project or project/active',
		help: 'Nested tags count: #project also finds #project/active. Case does not matter.',
		initialInput: () => '',
		candidates: ({ source }) =>
			[...vaultTags(source)]
				.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
				.map(([tag, n]) => ({ value: `#${tag}`, label: `#${tag}`, note: plural(n, 'use') })),
		title: (q) => (q.type === 'tag' ? `Notes tagged ${q.tag.startsWith('#') ? q.tag : `#${q.tag}`}` : ''),
	},
	prop: {
		id: 'find-notes-by-property',
		name: 'Find notes by property',
		placeholder: 'Property: key, key=value or key~text',
		help: 'key=value matches the value (or a list item); key~text matches part of it; key alone: any value.',
		initialInput: () => '',
		candidates: ({ source }, input) => {
			const arg = splitPropertyArgument(input);
			if (arg.op === undefined)
				return byUse(vaultKeys(source)).map((key) => ({
					value: key,
					label: key,
					note: 'any value; type = or ~ to pick one',
				}));
			return byUse(vaultValues(source, arg.key)).map((value) => ({
				value: `${arg.key}${arg.op ?? '='}${value}`,
				label: `${arg.key}${arg.op ?? '='}${value}`,
			}));
		},
		candidateScope: (input) => {
			const arg = splitPropertyArgument(input);
			return arg.op === undefined ? '' : `${arg.key}${arg.op}`;
		},
		title: (q) => {
			if (q.type !== 'prop') return '';
			if (q.value === undefined) return `Notes with property ${q.key}`;
			return `Notes where ${q.key} ${q.match === 'contains' ? 'contains' : 'is'} ${q.value}`;
		},
	},
	backlinks: {
		id: 'show-backlinks',
		name: 'Show backlinks of a note',
		help: 'Body links and links in properties both count. Defaults to the active note.',
		...NOTE_PROMPT,
		title: (q) => (q.type === 'backlinks' ? `Backlinks of ${linkName(q.target)}` : ''),
	},
	links: {
		id: 'show-outgoing-links',
		name: 'Show outgoing links of a note',
		help: 'Body and property links, each once, resolved or not. Defaults to the active note.',
		...NOTE_PROMPT,
		title: (q) => (q.type === 'links' ? `Outgoing links of ${linkName(q.source)}` : ''),
	},
	grep: {
		id: 'search-note-text',
		name: 'Search note text',
		placeholder: 'Text, or /regular expression/',
		help: 'Case-insensitive. Wrap in slashes for a regular expression.',
		initialInput: () => '',
		candidates: () => [],
		title: (q) =>
			q.type === 'grep' ? `Text matching ${q.regex === true ? `/${q.pattern}/` : `"${q.pattern}"`}` : '',
	},
};

/** One palette command per registered query type, in the registry's order. */
export const QUERY_COMMANDS: readonly QueryCommandSpec[] = QUERY_TYPES.map((spec) => ({
	...PROMPTS[spec.type],
	type: spec.type,
	parse: (input: string) => spec.fromText(input),
}));
