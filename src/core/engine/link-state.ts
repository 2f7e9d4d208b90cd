/**
 * The engine's link graph and what its `reuseGraph` queries share (query/context.ts): built on
 * first use and dropped together whenever a note or the configuration changes.
 */
import { LinkGraph } from '../link-graph';
import { primeNoteNames } from '../note-ref';
import type { NoteSource } from '../port';
import type { QueryReuse } from '../query/context';
import { resultOrder } from '../query/envelope';
import { resolveScope } from '../scope';
import type { EngineSettings } from '../settings';

/** The link graph, result order, skipped lists and name index a session's queries share. */
export class LinkState {
	private graph: LinkGraph | null = null;
	private reuse: QueryReuse | null = null;

	/** Over `source`, with the settings the engine has at each call. */
	constructor(
		private readonly source: NoteSource,
		private readonly settings: () => EngineSettings,
	) {}

	/** The link graph over the notes in scope. */
	linkGraph(): LinkGraph {
		const settings = this.settings();
		this.graph ??= new LinkGraph(this.source, resolveScope(this.source, settings).notes, settings.linksKey);
		return this.graph;
	}

	/** What queries share: the graph and skipped lists. */
	shared(): QueryReuse {
		return (this.reuse ??= { graph: this.linkGraph(), skipped: new Map() });
	}

	/** The shared state with the whole scope's result order, which a grep that stops at its limit reads in. */
	ordered(): QueryReuse {
		const reuse = this.shared();
		const settings = this.settings();
		reuse.order ??= resultOrder(this.source, settings, resolveScope(this.source, settings).notes);
		return reuse;
	}

	/** Build everything now: the graph and its inverted links, the result order, the name index. */
	warm(): void {
		const reuse = this.ordered();
		const notes = this.source.listNotes();
		primeNoteNames(notes);
		if (notes.length > 0) reuse.graph.linkersOf(notes[0]!);
	}

	/** Forget it all (a note or the configuration changed). */
	drop(): void {
		this.graph = null;
		this.reuse = null;
	}
}
