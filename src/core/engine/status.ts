/** What `VaultEngine.status()` reports: what the engine indexed, what it left out and why. */
import type { SkippedFile } from '../contract';
import type { NoteSource } from '../port';
import { resolveScope } from '../scope';
import type { SearchIndex } from '../search/search-index';
import type { EngineSettings } from '../settings';

/** Where the ranked-search index is. */
export type SearchIndexState = 'not built' | 'building' | 'ready';

/** What `status()` reports: what the engine indexed, what it left out and why. */
export interface EngineStatus {
	/** The report itself answered in full (skipped notes are part of it): always `success`, as every `--json` object says. */
	status: 'success';
	vault_path: string;
	/** Markdown notes the source lists. */
	notes: number;
	/** Notes in scope (after excluded folders, the config folder and Excluded files). */
	in_scope: number;
	/** Notes in the ranked-search index, or null before it is built. */
	indexed: number | null;
	search_index: SearchIndexState;
	/** Milliseconds the last search-index build took, or null. */
	build_ms: number | null;
	keyword_index: 'used' | 'missing' | 'disabled' | null;
	/** Notes not indexed or not fully read, with the reason. */
	skipped: SkippedFile[];
	/** What the scope rules left out. */
	exclusions: string[];
}

/** The status of an engine over `source` with `settings`, its search `index` (null: none yet) in `state`, built in `buildMs`. */
export function engineStatus(
	source: NoteSource,
	settings: EngineSettings,
	index: SearchIndex | null,
	state: SearchIndexState,
	buildMs: number | null,
): EngineStatus {
	const scope = resolveScope(source, settings);
	const skipped: SkippedFile[] = [];
	for (const path of scope.notes) {
		const reason = source.getSkipReason(path);
		if (reason !== null) skipped.push({ path, reason: `not searched: ${reason}` });
		else {
			const yaml = source.getFrontmatterError(path);
			if (yaml !== null) skipped.push({ path, reason: `frontmatter not parsed (${yaml})` });
		}
	}
	for (const s of index?.skipped ?? []) if (!skipped.some((k) => k.path === s.path)) skipped.push(s);
	return {
		status: 'success',
		vault_path: source.vaultPath,
		notes: source.listNotes().length,
		in_scope: scope.notes.length,
		indexed: index?.size ?? null,
		search_index: state,
		build_ms: buildMs,
		keyword_index: index?.keywordIndexStatus ?? null,
		skipped,
		exclusions: [...scope.exclusions],
	};
}
