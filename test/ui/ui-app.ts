/**
 * The fake App of test/plugin/fake-app.ts, with the workspace the UI faces need: leaves (main
 * area and right sidebar) that open files and host views, `viewRegistry` and `setting` (where the
 * stub's `Plugin.registerView` / `addSettingTab` forward), `activeEditor` over an in-memory copy
 * of the open note (typing or inserting a link never touches the vault), and
 * `fileManager.generateMarkdownLink`. Used by the happy-dom tests and, bundled, by the browser
 * harness of the end-to-end tests. The workspace element is appended to `document.body`.
 *
 * Like Obsidian, opening a file fires workspace `file-open` and `active-leaf-change`; a view's
 * leaf opens it (load, then onOpen) and closes it (onClose, then unload).
 */
import { TFile, type View } from 'obsidian';
import { FakeApp, FakeWorkspace, type FakeAppOptions } from '../plugin/fake-app';

/** The part of the stub's views a leaf drives (`open`/`close` are the stub's, not Obsidian's). */
interface OpenableView extends View {
	open(parentEl: HTMLElement): Promise<void>;
	close(): Promise<void>;
	getDisplayText(): string;
}

type ViewFactory = (leaf: TestLeaf) => OpenableView;

/** An editor over a text held in memory: selection is a [from, to) range of offsets. */
export class FakeEditor {
	/** Selection start and end (offsets). */
	from: number;
	to: number;

	constructor(public text: string) {
		this.from = text.length;
		this.to = text.length;
	}

	getValue(): string {
		return this.text;
	}

	getSelection(): string {
		return this.text.slice(this.from, this.to);
	}

	/** Selects `[from, to)` (test helper). */
	select(from: number, to: number): void {
		this.from = from;
		this.to = to;
	}

	replaceSelection(replacement: string): void {
		this.text = this.text.slice(0, this.from) + replacement + this.text.slice(this.to);
		this.from += replacement.length;
		this.to = this.from;
	}
}

/** A workspace leaf: in the main area (notes) or the right sidebar (views). */
export class TestLeaf {
	/** The leaf's element: `div.workspace-leaf`. */
	readonly containerEl: HTMLElement;
	/** The view open in it, if any. */
	view: OpenableView | null = null;
	/** The note open in it (main leaves). */
	file: TFile | null = null;

	constructor(
		readonly app: UiApp,
		readonly side: 'main' | 'right',
	) {
		this.containerEl = app.workspace.splitEl(side).createDiv('workspace-leaf');
	}

	getViewState(): { type: string } {
		return { type: this.view?.getViewType() ?? (this.file ? 'markdown' : 'empty') };
	}

	/** Opens the registered view of `type` in this leaf. */
	async setViewState(state: { type: string; active?: boolean }): Promise<void> {
		const create = this.app.viewRegistry.get(state.type);
		if (!create) throw new Error(`no view registered for ${state.type}`);
		await this.view?.close();
		this.containerEl.empty();
		this.view = create(this);
		await this.view.open(this.containerEl);
		if (state.active === true) this.app.workspace.setActiveLeaf(this);
	}

	/** Opens a note: records it, makes it the active file, shows its text, fires `file-open`. */
	async openFile(file: TFile, state?: unknown): Promise<void> {
		const ws = this.app.workspace;
		ws.opened.push({ path: file.path, newLeaf: ws.lastNewLeaf, state });
		await this.view?.close();
		this.view = null;
		this.file = file;
		const text = await this.app.vault.cachedRead(file);
		ws.editors.set(this, new FakeEditor(text));
		this.containerEl.empty();
		const note = this.containerEl
			.createDiv('workspace-leaf-content')
			.createDiv('view-content')
			.createDiv('markdown-reading-view');
		note.createEl('h1', { cls: 'inline-title', text: file.basename });
		for (const line of text
			.replace(/^---\n[\s\S]*?\n---\n/, '')
			.split('\n')
			.slice(0, 60))
			note.createDiv({ cls: 'harness-line', text: line });
		ws.activeFile = file;
		ws.setActiveLeaf(this);
		ws.trigger('file-open', file);
	}

	/** Closes the view and removes the leaf. */
	detach(): void {
		void this.view?.close();
		this.app.workspace.removeLeaf(this);
		this.containerEl.detach();
	}
}

/** The fake workspace with leaves. */
export class UiWorkspace extends FakeWorkspace {
	/** `div.workspace > div.workspace-split.mod-root + div.workspace-split.mod-right-split`. */
	readonly containerEl: HTMLElement;
	readonly leaves: TestLeaf[] = [];
	readonly editors = new Map<TestLeaf, FakeEditor>();
	activeLeaf: TestLeaf | null = null;
	/** The `newLeaf` argument of the last `getLeaf` (recorded with each opened file). */
	lastNewLeaf: unknown = false;
	private readonly mainEl: HTMLElement;
	private readonly rightEl: HTMLElement;
	private mainLeaf: TestLeaf | null = null;

	constructor(private readonly app: UiApp) {
		super();
		this.containerEl = document.body.createDiv('workspace');
		this.mainEl = this.containerEl.createDiv('workspace-split mod-root');
		this.rightEl = this.containerEl.createDiv('workspace-split mod-right-split');
	}

	/** Where a side's leaves live. */
	splitEl(side: 'main' | 'right'): HTMLElement {
		return side === 'main' ? this.mainEl : this.rightEl;
	}

	/** The main leaf (a new one for `'tab'`/`true`), as Obsidian's `getLeaf`. */
	override getLeaf(newLeaf?: unknown): TestLeaf {
		this.lastNewLeaf = newLeaf ?? false;
		if (this.mainLeaf === null || (newLeaf !== undefined && newLeaf !== false)) {
			this.mainLeaf = new TestLeaf(this.app, 'main');
			this.leaves.push(this.mainLeaf);
		}
		return this.mainLeaf;
	}

	getRightLeaf(_split: boolean): TestLeaf {
		const leaf = new TestLeaf(this.app, 'right');
		this.leaves.push(leaf);
		return leaf;
	}

	getLeavesOfType(type: string): TestLeaf[] {
		return this.leaves.filter((leaf) => leaf.view?.getViewType() === type);
	}

	async revealLeaf(leaf: TestLeaf): Promise<void> {
		leaf.containerEl.addClass('is-revealed');
	}

	/** Obsidian's `activeEditor`: the editor of the last main leaf showing a note. */
	get activeEditor(): { editor: FakeEditor; file: TFile } | null {
		const leaf = this.mainLeaf;
		const editor = leaf ? this.editors.get(leaf) : undefined;
		return leaf?.file && editor ? { editor, file: leaf.file } : null;
	}

	/** Makes `leaf` active and fires `active-leaf-change`. */
	setActiveLeaf(leaf: TestLeaf): void {
		this.activeLeaf = leaf;
		this.trigger('active-leaf-change', leaf);
	}

	/** Forgets a detached leaf. */
	removeLeaf(leaf: TestLeaf): void {
		const at = this.leaves.indexOf(leaf);
		if (at >= 0) this.leaves.splice(at, 1);
		if (this.mainLeaf === leaf) this.mainLeaf = null;
	}
}

/** Where the stub's `Plugin.registerView` forwards (Obsidian's internal `app.viewRegistry`). */
export class FakeViewRegistry {
	private readonly creators = new Map<string, ViewFactory>();

	registerView(type: string, creator: ViewFactory): void {
		this.creators.set(type, creator);
	}

	unregisterView(type: string): void {
		this.creators.delete(type);
	}

	get(type: string): ViewFactory | undefined {
		return this.creators.get(type);
	}
}

/** The setting tab the stub's `Plugin.addSettingTab` hands over. */
interface SettingTabLike {
	containerEl: HTMLElement;
	display(): void;
	hide(): void;
}

/** Where the stub's `Plugin.addSettingTab` forwards (Obsidian's internal `app.setting`). */
export class FakeSettingDialog {
	readonly tabs: SettingTabLike[] = [];

	addSettingTab(tab: SettingTabLike): void {
		this.tabs.push(tab);
	}

	removeSettingTab(tab: SettingTabLike): void {
		const at = this.tabs.indexOf(tab);
		if (at >= 0) this.tabs.splice(at, 1);
	}

	/** Shows a tab in `parent`, as opening the settings dialog on it does. */
	open(tab: SettingTabLike, parent: HTMLElement): void {
		parent.appendChild(tab.containerEl);
		tab.display();
	}
}

/** The fake App with a workspace of leaves. */
export class UiApp extends FakeApp {
	override readonly workspace: UiWorkspace = new UiWorkspace(this);
	readonly viewRegistry = new FakeViewRegistry();
	readonly setting = new FakeSettingDialog();
	readonly fileManager = {
		/** `[[name]]` (shortest unique form, Obsidian's default), `[[folder/name]]` when the name is shared. */
		generateMarkdownLink: (file: TFile, _sourcePath: string): string => {
			const shared = this.vault.getMarkdownFiles().filter((f) => f.basename === file.basename).length > 1;
			const name = file.extension === 'md' ? (shared ? file.path.slice(0, -3) : file.basename) : file.name;
			return `[[${name}]]`;
		},
	};

	constructor(files: Record<string, string> = {}, options: FakeAppOptions = {}) {
		super(files, options);
	}

	/** Opens a note in the main area, as clicking it in the file explorer does. */
	async openNote(path: string): Promise<void> {
		const file = this.vault.getAbstractFileByPath(path);
		if (!(file instanceof TFile)) throw new Error(`no note ${path}`);
		await this.workspace.getLeaf(false).openFile(file);
	}
}

/** A vault's files as plain data (read in Node, handed to a page as JSON). */
export interface VaultSnapshot {
	/** Vault path → text, dot-files and dot-folders left out (Obsidian does not load them). */
	files: Record<string, string>;
	/** `<configDir>/<name>` → text. */
	configFiles: Record<string, string>;
	/** `userIgnoreFilters` from the config folder's app.json. */
	userIgnoreFilters: string[];
	/** The vault's name. */
	name: string;
	/** Vault path → modification time (ms), so dates taken from mtimes agree with the Node face's. */
	mtimes: Record<string, number>;
}

/** A UiApp over a snapshot; `appId`: the vault's id (default: one of its own). */
export function appFromSnapshot(snapshot: VaultSnapshot, appId?: string): UiApp {
	const app = new UiApp(snapshot.files, {
		appId,
		name: snapshot.name,
		userIgnoreFilters: snapshot.userIgnoreFilters,
		mtimes: snapshot.mtimes,
	});
	for (const [path, text] of Object.entries(snapshot.configFiles)) app.vault.adapter.files.set(path, text);
	return app;
}
