import { debounce, ItemView, requireApiVersion, type App, type WorkspaceLeaf } from 'obsidian';
import type { FacesHost } from './host';
import { openNoteAt } from './open-note';
import { PackBox } from './pack-box';
import { QueryBox } from './query-box';
import { buildPanelModel, titleOf } from './side-panel-data';
import { renderPanelModel, section } from './side-panel-render';

/**
 * The side panel: for the active note, its backlinks (body / properties / both, with the linking
 * lines), outgoing links, tag tree and the notes sharing its tags; below, a query box and "Copy
 * context pack" with a budget. It follows the active note (`file-open`, `active-leaf-change`) and
 * vault changes (metadata `changed`/`resolved`, renames, deletions), redrawing after a short pause;
 * every listener goes through `registerEvent`, so closing the view releases it. The plugin keeps
 * no reference to the view: it finds it through `getLeavesOfType`.
 */

/** The view type. */
export const SIDE_PANEL_VIEW = 'vault-query-side-panel';

const REFRESH_MS = 250; // why: one redraw after a burst of metadata events (a rename fires dozens).

/** The side panel view. */
export class SidePanelView extends ItemView {
	private noteEl: HTMLElement | null = null;
	private queryBox: QueryBox | null = null;
	private shownPath: string | null = null;
	private drawing = 0;
	/** False once closed: late callbacks (the engine becoming ready) must not schedule redraws. */
	private isOpen = false;
	private readonly refreshSoon = debounce(() => void this.refresh(), REFRESH_MS, true);

	/** `host` is the plugin's narrow port for the faces. */
	constructor(
		leaf: WorkspaceLeaf,
		private readonly host: FacesHost,
	) {
		super(leaf);
		this.icon = 'list-tree';
	}

	/** The view type. */
	getViewType(): string {
		return SIDE_PANEL_VIEW;
	}

	/** The tab's title. */
	getDisplayText(): string {
		return 'Note context';
	}

	/** The icon of the tab. */
	override getIcon(): string {
		return 'list-tree';
	}

	/** Builds the layout and starts following the active note and the vault. */
	protected override async onOpen(): Promise<void> {
		this.isOpen = true;
		const root = this.contentEl;
		root.empty();
		root.addClass('vault-query-panel');
		this.noteEl = root.createDiv('vault-query-panel-current');
		const query = section(root, 'mod-query', 'Query', null);
		this.queryBox = new QueryBox(query, this.host, (path, line, evt) => openNoteAt(this.app, path, line, evt));
		const pack = section(root, 'mod-pack', 'Context pack', null);
		new PackBox(
			pack,
			this.host,
			() => this.queryBox?.value || (this.shownPath === null ? '' : titleOf(this.host.source, this.shownPath)),
		);
		const { workspace, metadataCache, vault } = this.app;
		this.registerEvent(workspace.on('file-open', () => this.refreshSoon()));
		this.registerEvent(workspace.on('active-leaf-change', () => this.refreshSoon()));
		this.registerEvent(metadataCache.on('changed', () => this.refreshSoon()));
		this.registerEvent(metadataCache.on('resolved', () => this.refreshSoon()));
		this.registerEvent(vault.on('rename', () => this.refreshSoon()));
		this.registerEvent(vault.on('delete', () => this.refreshSoon()));
		// The engine may become ready after the panel closed: a closed panel must not re-arm its timer.
		void this.host.whenReady().then(() => {
			if (this.isOpen) this.refreshSoon();
		});
		await this.refresh();
	}

	/** Stops pending redraws. */
	protected override async onClose(): Promise<void> {
		this.isOpen = false;
		this.refreshSoon.cancel();
		this.queryBox?.cancel();
		this.drawing++;
	}

	/** Redraws the note part for the active note (the query and pack boxes keep their state). */
	async refresh(): Promise<void> {
		const el = this.noteEl;
		if (!el) return;
		const draw = ++this.drawing;
		const path = this.app.workspace.getActiveFile()?.path ?? null;
		if (path === null || !path.endsWith('.md')) {
			if (path === null && this.shownPath === null) {
				el.empty();
				el.createDiv({ cls: 'vault-query-empty', text: 'Open a note to see its links and tags.' });
			}
			return;
		}
		const model = await buildPanelModel(this.host, path, this.host.linksKey());
		if (draw !== this.drawing) return;
		this.shownPath = path;
		renderPanelModel(el, model, {
			open: (target, line, evt) => openNoteAt(this.app, target, line, evt),
			showTag: (tag) => void this.queryBox?.show(`tag:${tag}`),
		});
	}
}

/** Opens the side panel in the right sidebar (or reveals it when it is open already). */
export async function openSidePanel(app: App): Promise<void> {
	const { workspace } = app;
	let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(SIDE_PANEL_VIEW)[0] ?? null;
	if (leaf === null) {
		leaf = workspace.getRightLeaf(false);
		if (leaf === null) return;
		await leaf.setViewState({ type: SIDE_PANEL_VIEW, active: true });
	}
	// revealLeaf also uncollapses the sidebar, but only exists from 1.7.2 (minAppVersion is 1.4.0).
	if (requireApiVersion('1.7.2')) await workspace.revealLeaf(leaf);
	else workspace.setActiveLeaf(leaf, { focus: true });
}
