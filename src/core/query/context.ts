import { LinkGraph } from '../link-graph';
import type { NoteSource } from '../port';
import { resolveScope, type Scope } from '../scope';
import type { EngineSettings } from '../settings';

/** What every query needs: the port, the settings, the scope it may search and the link graph. */
export interface QueryContext {
	source: NoteSource;
	settings: EngineSettings;
	scope: Scope;
	graph: LinkGraph;
}

/**
 * Build the context for one query (throws `ScopeError` for unknown folders). `graph`: a link graph
 * over the whole scope that the caller keeps between queries on an unchanging source (the MCP
 * server's state); used when no folders narrow the scope, since a graph's notes are its scope.
 */
export function makeContext(source: NoteSource, settings: EngineSettings, folders?: string[], graph?: LinkGraph): QueryContext {
	const scope = resolveScope(source, settings, folders);
	const whole = folders === undefined || folders.length === 0;
	return { source, settings, scope, graph: whole && graph !== undefined ? graph : new LinkGraph(source, scope.notes, settings.linksKey) };
}
