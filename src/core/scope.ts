import { folderPrefix, isInFolder } from './paths';
import { compileMatcher } from './text/matcher';
import type { NoteSource } from './port';
import { drain } from './steps';
import type { EngineSettings } from './settings';

/** Which notes a query may look at, and what it left out (for the report). Shared between queries: never changed once made. */
export interface Scope {
	/** Notes in scope, in the source's walk order. */
	readonly notes: readonly string[];
	/** Folders (prefixes) the query was narrowed to; empty = whole vault. */
	readonly folders: readonly string[];
	/** Human lines for the report: what was excluded and by which rule. */
	readonly exclusions: readonly string[];
}

/**
 * Scopes worked out, per list of notes (a source hands out the same list until its files change)
 * and per rules and folders: every query and every engine over that list shares one — a server
 * makes a new engine at each refresh, and 50,000 `ruleFor` calls are ~30 ms of every call after one.
 */
const scopesByNotes = new WeakMap<readonly string[], Map<string, Scope>>();
/** Distinct rule-and-folder combinations kept per list (folder narrowing varies by query). */
const SCOPES_PER_LIST = 32;

/** Scoping pauses every 4,096 notes (a power of two, less one, as a mask): ~1 ms of rules. */
const SCOPE_STEP_MASK = 4095;

/**
 * A `userIgnoreFilters` entry: `/regex/` or a path prefix, as Obsidian's "Excluded files" setting
 * stores them. A `/regex/` runs on the same bounded matcher as a user's grep: a vault's own settings
 * must not be able to hang a query either.
 */
function ignoreMatcher(filter: string): ((path: string) => boolean) | { error: string } {
	if (filter.length > 2 && filter.startsWith('/') && filter.endsWith('/')) {
		const compiled = compileMatcher({ pattern: filter.slice(1, -1), regex: true, caseSensitive: true });
		// Obsidian ignores an invalid pattern too; we say so in the report.
		if (!compiled.ok) return { error: compiled.error.replace(/^pattern: /, '') };
		return (path) => compiled.matcher.test(path);
	}
	const prefix = filter.replace(/^\/+/, '');
	return prefix === '' ? { error: 'empty' } : (path) => path.startsWith(prefix);
}

/** Scope errors name the bad parameter so the face can print it. */
export class ScopeError extends Error {}

/** The vault-wide exclusion rules of one source and settings: one decision for every operation and every edit. */
export interface ScopeRules {
	/** The rule that leaves `path` out (a folder prefix or `Excluded files: <filter>`), or null when it is in scope. */
	ruleFor(path: string): string | null;
	/** Report lines for Excluded-files entries that could not be used. */
	readonly invalid: string[];
}

/**
 * The exclusion rules: the excluded folders, the config folder and the user's "Excluded files".
 * Bulk scoping (`resolveScope`) and single-note edits (the engine's `upsert`) both ask this, so an
 * edit can never bring back a note the build left out.
 */
export function scopeRules(
	source: Pick<NoteSource, 'configDir' | 'userIgnoreFilters' | 'excludedFilesProblem'>,
	settings: Pick<EngineSettings, 'excludedFolders'>,
): ScopeRules {
	const excluded = [...settings.excludedFolders.map(folderPrefix), folderPrefix(source.configDir)].filter(
		(p) => p !== '',
	);
	const invalid: string[] = [];
	if (source.excludedFilesProblem) invalid.push(`Excluded files not applied: ${source.excludedFilesProblem}`);
	const matchers: { label: string; test: (path: string) => boolean }[] = [];
	for (const filter of source.userIgnoreFilters) {
		const test = ignoreMatcher(filter);
		if (typeof test === 'function') matchers.push({ label: filter, test });
		else invalid.push(`Excluded-files entry ignored (${test.error}): ${filter}`);
	}
	return {
		invalid,
		ruleFor(path) {
			const byFolder = excluded.find((prefix) => isInFolder(path, prefix));
			if (byFolder) return byFolder;
			const byFilter = matchers.find((m) => m.test(path));
			return byFilter ? `Excluded files: ${byFilter.label}` : null;
		},
	};
}

/** Note → position in a scope's list, per list: engines over an unchanged file list share the scope's list, so one map serves them all. */
const positionsByList = new WeakMap<readonly string[], ReadonlyMap<string, number>>();

/** Each note's position in `notes` (a scope's list), made once per list. */
export function positionsIn(notes: readonly string[]): ReadonlyMap<string, number> {
	let positions = positionsByList.get(notes);
	if (positions === undefined) positionsByList.set(notes, (positions = new Map(notes.map((path, i) => [path, i]))));
	return positions;
}

/** Notes of a scope looked up between two pauses of `positionsOfSteps`. */
const POSITION_STEP = 8192; // why: a set lookup a note, well under a millisecond; the scope's whole position map made at once (50k entries, `positionsIn`) was one step of 0.1 s in a browser.

/** The positions in `scope` of the notes of `paths` (those it lists), in steps of {@link POSITION_STEP} notes. */
export function* positionsOfSteps(
	scope: readonly string[],
	paths: readonly string[],
): Generator<void, Map<string, number>, void> {
	const wanted = new Set(paths);
	const positions = new Map<string, number>();
	for (let i = 0; i < scope.length; i++) {
		if (wanted.has(scope[i]!)) positions.set(scope[i]!, i);
		if ((i + 1) % POSITION_STEP === 0) yield;
	}
	return positions;
}

/** The limitation naming notes a rule kept out: "Not searched: 3 note(s) in _views/". */
function exclusionNote(count: number, rule: string): string {
	return `Not searched: ${count} note(s) in ${rule}`;
}

/** How many notes an exclusion note (see exclusionNote) counts, or null for any other limitation; quiet text output sums them. */
export function excludedCount(limitation: string): number | null {
	const found = /^Not searched: (\d+) note\(s\) in /.exec(limitation);
	return found === null ? null : Number(found[1]);
}

/**
 * The notes a query searches: everything but the excluded folders, the config folder and the
 * user's "Excluded files", narrowed to `folders` when given. Unknown folders are an error,
 * because silently searching nothing looks like "nothing matched".
 */
export function resolveScope(
	source: NoteSource,
	settings: Pick<EngineSettings, 'excludedFolders'>,
	folders?: readonly string[],
): Scope {
	return drain(resolveScopeSteps(source, settings, folders));
}

/** {@link resolveScope} as steps (core/steps): a host's main thread scopes 50k notes in slices (~15 ms in one go). */
export function* resolveScopeSteps(
	source: NoteSource,
	settings: Pick<EngineSettings, 'excludedFolders'>,
	folders?: readonly string[],
): Generator<void, Scope, void> {
	const all = source.listNotes();
	const key = JSON.stringify([
		settings.excludedFolders,
		source.configDir,
		source.userIgnoreFilters,
		source.excludedFilesProblem ?? null,
		folders ?? [],
	]);
	let known = scopesByNotes.get(all);
	const cached = known?.get(key);
	if (cached !== undefined) return cached;
	const scope = yield* computeScopeSteps(source, settings, all, folders);
	if (known === undefined) scopesByNotes.set(all, (known = new Map<string, Scope>()));
	if (known.size >= SCOPES_PER_LIST) known.clear();
	known.set(key, scope);
	return scope;
}

/** `resolveScope` without the cache, as steps; the arrays are frozen, as every query shares them. */
function* computeScopeSteps(
	source: NoteSource,
	settings: Pick<EngineSettings, 'excludedFolders'>,
	all: readonly string[],
	folders?: readonly string[],
): Generator<void, Scope, void> {
	const rules = scopeRules(source, settings);
	const exclusions: string[] = [...rules.invalid];
	const wanted = (folders ?? []).map(folderPrefix).filter((p, i, all) => all.indexOf(p) === i);
	if (wanted.length > 0 && !wanted.includes('')) {
		const missing = wanted.filter((prefix) => !all.some((path) => path.startsWith(prefix)));
		if (missing.length > 0) {
			throw new ScopeError(`folders: no notes under ${missing.map((m) => `"${m}"`).join(', ')} in this vault`);
		}
	}
	const counts = new Map<string, number>();
	const notes: string[] = [];
	for (let i = 0; i < all.length; i++) {
		const path = all[i]!;
		if ((i & SCOPE_STEP_MASK) === SCOPE_STEP_MASK) yield;
		// Outside the requested folders a note is simply out of scope; exclusions are only worth
		// reporting for notes the caller asked about.
		if (wanted.length > 0 && !wanted.some((prefix) => isInFolder(path, prefix))) continue;
		const rule = rules.ruleFor(path);
		if (rule !== null) {
			counts.set(rule, (counts.get(rule) ?? 0) + 1);
			continue;
		}
		notes.push(path);
	}
	for (const [rule, count] of counts) exclusions.push(exclusionNote(count, rule));
	return {
		notes: Object.freeze(notes),
		folders: Object.freeze(wanted.filter((p) => p !== '')),
		exclusions: Object.freeze(exclusions),
	};
}
