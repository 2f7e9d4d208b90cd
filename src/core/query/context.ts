import { LinkGraph } from '../link-graph';
import type { SkippedFile } from '../contract';
import type { NoteSource } from '../port';
import { resolveScope, type Scope } from '../scope';
import type { EngineSettings } from '../settings';

/** What every query needs: the port, the settings, the scope it may search and the link graph. */
export interface QueryContext {
	source: NoteSource;
	settings: EngineSettings;
	scope: Scope;
	graph: LinkGraph;
	/** What a host reuses between queries on an unchanging source (see `makeContext`). */
	reuse?: QueryReuse;
}

/**
 * What a host whose source never changes under it (the MCP server's state) keeps between
 * queries: the link graph over the whole scope, every note in result order (a grep then stops at
 * its limit), and the skipped-files lists of the whole scope, each computed once.
 */
export interface QueryReuse {
	graph: LinkGraph;
	order?: readonly string[];
	skipped?: Map<boolean, SkippedFile[]>;
}

/**
 * Build the context for one query (throws `ScopeError` for unknown folders). `reuse`: what the
 * caller keeps between queries on an unchanging source (the MCP server's state); its graph is
 * used when no folders narrow the scope, since a graph's notes are its scope.
 */
export function makeContext(
	source: NoteSource,
	settings: EngineSettings,
	folders?: string[],
	reuse?: QueryReuse,
): QueryContext {
	const scope = resolveScope(source, settings, folders);
	const whole = folders === undefined || folders.length === 0;
	return {
		source,
		settings,
		scope,
		graph: whole && reuse !== undefined ? reuse.graph : new LinkGraph(source, scope.notes, settings.linksKey),
		...(reuse ? { reuse } : {}),
	};
}

/**
 * `makeContext` for one pass over many notes (a full grep or text-search answer): over the
 * source's passing view when it has one (`NoteSource.passing`) and a link graph of its own that
 * keeps no note's links past that note, so what the pass decodes is let go as it moves on rather
 * than held by the host between queries. A source without a passing view gets `makeContext`'s.
 */
export function passingContext(
	source: NoteSource,
	settings: EngineSettings,
	folders?: string[],
	reuse?: QueryReuse,
): QueryContext {
	const view = source.passing?.();
	if (view === undefined) return makeContext(source, settings, folders, reuse);
	const ctx = makeContext(view, settings, folders, reuse);
	return { ...ctx, graph: new LinkGraph(view, ctx.scope.notes, settings.linksKey, undefined, false) };
}
