import { Component, Notice, TFile, type App, type TAbstractFile } from 'obsidian';
import { SearchIndex, type SearchSettings } from '../core/search/search';
import type { IndexLifecycle } from './index-lifecycle';
import type { ObsidianNoteSource } from './source';

/** Notes from which the first build shows a progress notice (~1 s of slices on a phone). */
const LARGE_VAULT_NOTES = 2000;

/**
 * Keeps a ranked-search {@link SearchIndex} over an {@link ObsidianNoteSource} current inside
 * Obsidian, for the commands and API methods that rank (context packs).
 *
 * - Nothing happens in `onload` but asking for layout-ready. The build starts once the
 *   {@link IndexLifecycle} is `ready` (every note has metadata), and runs in slices of ~12 ms
 *   that yield to Obsidian between them (`SearchIndex.build`), so typing never stalls.
 * - Changes arrive as metadata events (`changed`, `deleted`) and vault renames, through
 *   `registerEvent`. During the build they are queued and replayed on the finished index.
 * - `get()` resolves with the current index (building it first if needed).
 */
export class SearchIndexLifecycle extends Component {
	private index: SearchIndex | null = null;
	private building: Promise<SearchIndex> | null = null;
	private active = false;
	/** Paths changed during the build: re-read afterwards (removed when no longer notes). */
	private readonly pending = new Set<string>();
	private readonly waiters: ((index: SearchIndex) => void)[] = [];

	/** `lifecycle` gates the build on Obsidian's readiness; `settings` are the search settings. */
	constructor(
		private readonly app: App,
		private readonly source: ObsidianNoteSource,
		private readonly lifecycle: IndexLifecycle,
		private readonly settings: () => Partial<SearchSettings> = () => ({}),
	) {
		super();
	}

	/** Whether the index is built (queries answer at once). */
	get isBuilt(): boolean {
		return this.index !== null;
	}

	/** Light: waits for layout-ready before listening or building. */
	override onload(): void {
		this.active = true;
		this.app.workspace.onLayoutReady(() => this.start());
	}

	/** Listeners are released by `registerEvent`; the index is dropped. */
	override onunload(): void {
		this.active = false;
		this.index = null;
	}

	/** The current index, built first when needed (the build waits for Obsidian's readiness). */
	get(): Promise<SearchIndex> {
		if (this.index) return Promise.resolve(this.index);
		if (this.building) return this.building;
		return new Promise((resolve) => this.waiters.push(resolve));
	}

	/**
	 * For a large vault the first build takes seconds: a notice shows how far it got and goes
	 * away when it is done. Small vaults build before anyone could read a notice.
	 */
	private progressNotice(): { notice: Notice; update: (done: number, total: number) => void } | null {
		const total = this.source.listNotes().length;
		if (total < LARGE_VAULT_NOTES) return null;
		const notice = new Notice(`Indexing ${total} notes for search…`, 0);
		return { notice, update: (done, all) => notice.setMessage(`Indexing notes for search… ${Math.floor((done * 100) / all)}%`) };
	}

	private start(): void {
		if (!this.active) return;
		const { vault, metadataCache } = this.app;
		this.registerEvent(metadataCache.on('changed', (file, data) => this.changed(file.path, data)));
		this.registerEvent(metadataCache.on('deleted', (file) => this.removed(file)));
		this.registerEvent(vault.on('delete', (file) => this.removed(file)));
		this.registerEvent(vault.on('rename', (file, oldPath) => this.renamed(file, oldPath)));
		void this.build();
	}

	private async build(): Promise<SearchIndex> {
		if (this.building) return this.building;
		this.building = (async () => {
			await this.lifecycle.whenReady();
			// The build reads every note as it is now: only changes made while it runs need replaying.
			this.pending.clear();
			const progress = this.progressNotice();
			let index: SearchIndex;
			try {
				index = await SearchIndex.build(this.source, this.settings(), { onProgress: progress?.update });
			} finally {
				progress?.notice.hide();
			}
			for (const path of this.pending) await index.refresh(path);
			this.pending.clear();
			if (!this.active) return index;
			this.index = index;
			for (const resolve of this.waiters.splice(0)) resolve(index);
			return index;
		})();
		return this.building;
	}

	private changed(path: string, text: string): void {
		if (!path.endsWith('.md')) return;
		if (!this.index) this.pending.add(path);
		else this.index.upsert({ path, text, metadata: this.source.getMetadata(path) });
	}

	private removed(file: TAbstractFile): void {
		if (!this.index) {
			this.pending.add(file.path);
			return;
		}
		if (file instanceof TFile) this.index.remove(file.path);
		else for (const path of this.notesUnder(file.path)) this.index.remove(path);
	}

	private renamed(file: TAbstractFile, oldPath: string): void {
		if (!(file instanceof TFile)) {
			// A folder moved: every note under it moved with it.
			for (const path of this.notesUnder(oldPath)) this.move(path, `${file.path}${path.slice(oldPath.length)}`);
			return;
		}
		if (file.extension === 'md') this.move(oldPath, file.path);
	}

	private move(oldPath: string, newPath: string): void {
		if (!this.index) {
			this.pending.add(oldPath);
			this.pending.add(newPath);
			return;
		}
		this.index.remove(oldPath);
		void this.index.refresh(newPath);
	}

	/** Indexed note paths inside a folder. */
	private notesUnder(folder: string): string[] {
		const prefix = `${folder}/`;
		return (this.index?.index.docs ?? []).flatMap((d) => (d !== null && d.path.startsWith(prefix) ? [d.path] : []));
	}
}
