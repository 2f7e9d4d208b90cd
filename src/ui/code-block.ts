import { debounce, MarkdownRenderChild, Notice, setIcon, type MarkdownPostProcessorContext } from 'obsidian';
import type { ContextPack } from '../core/pack/pack';
import { parseBlock, type BlockSpec } from './code-block-syntax';
import { activatable, plural } from './dom';
import type { FacesHost } from './host';
import { openNoteAt } from './open-note';
import { renderPack } from './pack-view';
import { renderQueryResult, type OpenNote } from './results-modal';
import { renderHit } from './search-hit';

/**
 * A `vault-query` code block (syntax: code-block-syntax.ts) rendered live inside a note: a
 * search's ranked hits, a structural query's results, or a context pack with a copy button. An
 * error shows as a message naming the problem. A `MarkdownRenderChild` ties it to the rendered
 * block: it listens (registerEvent) to metadata and vault changes and redraws after a pause,
 * and stops when Obsidian unloads the block.
 */

/** The code block language. */
export const CODE_BLOCK_LANGUAGE = 'vault-query';

const REFRESH_MS = 500; // why: a block redraws after the typing pause that ends a burst of metadata events.
const PACK_REFRESH_MS = 2000; // why: a pack reads many sections; once the vault is quiet is often enough.

/** One rendered block. */
export class QueryBlock extends MarkdownRenderChild {
	private drawing = 0;
	/** True between load and unload. */
	private loaded = false;
	private readonly refreshSoon;

	/** `text` is the block's source; `sourcePath` the note holding it. */
	constructor(
		containerEl: HTMLElement,
		private readonly host: FacesHost,
		private readonly text: string,
		private readonly sourcePath: string,
	) {
		super(containerEl);
		const pack = parseBlock(text, sourcePath).kind === 'pack';
		this.refreshSoon = debounce(() => void this.render(), pack ? PACK_REFRESH_MS : REFRESH_MS, true);
	}

	/** Draws now, again once the vault is ready, and after vault changes. */
	override onload(): void {
		this.loaded = true;
		this.containerEl.addClass('vault-query-block');
		const { metadataCache, vault } = this.host.app;
		this.registerEvent(metadataCache.on('resolved', () => this.refreshSoon()));
		this.registerEvent(vault.on('rename', () => this.refreshSoon()));
		this.registerEvent(vault.on('delete', () => this.refreshSoon()));
		void this.render();
		// The engine may become ready after the block was unloaded: it must not re-arm its timer then.
		void this.host.whenReady().then(() => {
			if (this.loaded) this.refreshSoon();
		});
	}

	/** Stops pending redraws. */
	override onunload(): void {
		this.loaded = false;
		this.refreshSoon.cancel();
		this.drawing++;
	}

	/** Parses the block and draws its answer (or its error). */
	async render(): Promise<void> {
		const draw = ++this.drawing;
		const spec = parseBlock(this.text, this.sourcePath);
		if (spec.kind === 'error') {
			this.showError(spec.message);
			return;
		}
		// Drawn hidden beside the current answer and swapped in whole, so a redraw never flickers.
		const body = this.containerEl.createDiv({ cls: ['vault-query-block-body', 'is-pending'] });
		try {
			await this.answer(spec, body);
		} catch (error) {
			body.detach();
			if (draw === this.drawing) this.showError(error instanceof Error ? error.message : String(error));
			return;
		}
		if (draw !== this.drawing) {
			body.detach();
			return;
		}
		for (const child of [...this.containerEl.children]) if (child !== body) child.detach();
		body.removeClass('is-pending');
	}

	private showError(message: string): void {
		this.containerEl.empty();
		const box = this.containerEl.createDiv({ cls: 'vault-query-block-error', attr: { role: 'alert' } });
		box.createDiv({ cls: 'vault-query-block-error-title', text: 'Vault Query could not run this block' });
		box.createDiv({ text: message });
	}

	private async answer(spec: BlockSpec, el: HTMLElement): Promise<void> {
		const open: OpenNote = (path, line, evt) => openNoteAt(this.host.app, path, line, evt);
		if (spec.kind === 'structural') {
			el.createDiv({ cls: 'vault-query-block-title', text: spec.title });
			renderQueryResult(el.createDiv(), await this.host.query(spec.query), open);
			return;
		}
		if (spec.kind === 'pack') {
			const pack = await this.host.pack({ query: spec.question, budget: spec.budget });
			this.packHeader(el, spec.question, pack);
			renderPack(el.createDiv(), pack, open);
			return;
		}
		const result = await this.host.search(spec.query, { limit: spec.limit });
		el.createDiv({ cls: 'vault-query-block-title', text: `Search: ${spec.query}` });
		if (result.status === 'failed') {
			el.createDiv({
				cls: 'vault-query-error',
				text: `The search could not run: ${result.error ?? 'unknown error'}`,
			});
			return;
		}
		const shown = result.results.length;
		el.createDiv({
			cls: 'vault-query-summary',
			text:
				shown < result.matched
					? `Showing ${shown} of ${plural(result.matched, 'note')}`
					: plural(result.matched, 'note'),
		});
		const list = el.createDiv('vault-query-list');
		if (shown === 0) list.createDiv({ cls: 'vault-query-empty', text: 'No notes match.' });
		for (const hit of result.results) {
			const row = list.createDiv('vault-query-result');
			renderHit(row, hit);
			activatable(row, (evt) => open(hit.path, hit.line ?? undefined, evt), `Open ${hit.title}`);
		}
	}

	private packHeader(el: HTMLElement, question: string, pack: ContextPack): void {
		const head = el.createDiv('vault-query-block-title');
		head.createSpan({ text: `Context pack: ${question}` });
		if (pack.status === 'failed') return;
		const copy = head.createEl('button', {
			cls: 'clickable-icon vault-query-copy',
			attr: { 'aria-label': 'Copy context pack' },
		});
		setIcon(copy, 'copy');
		copy.addEventListener('click', () => {
			void navigator.clipboard.writeText(pack.markdown).then(() => new Notice('Context pack copied.'));
		});
	}
}

/** Registers the processor: every `vault-query` block becomes a {@link QueryBlock}. */
export function blockProcessor(
	host: FacesHost,
): (source: string, el: HTMLElement, ctx: MarkdownPostProcessorContext) => void {
	return (source, el, ctx) => ctx.addChild(new QueryBlock(el, host, source, ctx.sourcePath));
}
