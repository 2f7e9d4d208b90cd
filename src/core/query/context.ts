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

/** Build the context for one query (throws `ScopeError` for unknown folders). */
export function makeContext(source: NoteSource, settings: EngineSettings, folders?: string[]): QueryContext {
	const scope = resolveScope(source, settings, folders);
	return { source, settings, scope, graph: new LinkGraph(source, scope.notes, settings.linksKey) };
}
