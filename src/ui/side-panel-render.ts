import type { LinkResult, LinkSource } from '../core/contract';
import { activatable, linkPathLine } from './dom';
import type { OpenNote } from './results-modal';
import type { BacklinkRow, PanelModel, SharingRow, TagNode } from './side-panel-data';

/**
 * The note-dependent part of the side panel, drawn from a {@link PanelModel}: backlinks grouped
 * body / properties / both with their linking lines, outgoing links, the tag tree, notes sharing
 * the tags. Every row is a focusable button; sections are `details` (keyboard folds them).
 */

/** What the rendered rows can do. */
export interface PanelActions {
	/** Open a note (at a 1-based line); Mod opens a new tab. */
	open: OpenNote;
	/** List the notes carrying a tag (in the panel's query box). */
	showTag(tag: string): void;
}

const GROUPS: { source: LinkSource; label: string }[] = [
	{ source: 'body', label: 'In the body' },
	{ source: 'frontmatter', label: 'In properties' },
	{ source: 'both', label: 'In the body and properties' },
];

/** A folding section with a count in its summary; returns its body. */
export function section(parent: HTMLElement, cls: string, title: string, count: number | null): HTMLElement {
	const details = parent.createEl('details', { cls: ['vault-query-panel-section', cls], attr: { open: true } });
	const summary = details.createEl('summary', { cls: 'vault-query-panel-heading' });
	summary.createSpan({ text: title });
	if (count !== null) summary.createSpan({ cls: 'vault-query-panel-count', text: String(count) });
	return details.createDiv('vault-query-panel-body');
}

function empty(parent: HTMLElement, text: string): void {
	parent.createDiv({ cls: 'vault-query-empty', text });
}

function renderBacklink(parent: HTMLElement, row: BacklinkRow, actions: PanelActions): void {
	const item = parent.createDiv('vault-query-panel-row');
	const first = row.lines.find((l) => l.line !== null)?.line ?? undefined;
	const title = item.createDiv({ cls: 'vault-query-panel-row-title', text: row.title });
	activatable(title, (evt) => actions.open(row.path, first, evt), `Open ${row.title}`);
	item.createDiv({ cls: 'vault-query-result-path', text: row.path });
	for (const line of row.lines) {
		const el = item.createDiv('vault-query-match');
		el.createSpan({ cls: 'vault-query-line-number', text: line.line === null ? '·' : String(line.line) });
		el.createSpan({ cls: 'vault-query-line-text', text: line.text });
		const at = line.line ?? undefined;
		activatable(el, (evt) => actions.open(row.path, at, evt), `Open ${row.title} at line ${line.line ?? 1}`);
	}
}

function renderBacklinks(parent: HTMLElement, model: PanelModel, actions: PanelActions): void {
	const total = GROUPS.reduce((n, g) => n + model.backlinks[g.source].length, 0);
	const body = section(parent, 'mod-backlinks', 'Backlinks', total);
	if (total === 0) empty(body, 'No notes link here.');
	for (const group of GROUPS) {
		const rows = model.backlinks[group.source];
		if (rows.length === 0) continue;
		const box = body.createDiv({ cls: ['vault-query-panel-group', `mod-${group.source}`] });
		const label = box.createDiv('vault-query-panel-group-label');
		label.createSpan({ cls: ['vault-query-badge', `mod-${group.source}`], text: group.label });
		label.createSpan({ cls: 'vault-query-panel-count', text: String(rows.length) });
		for (const row of rows) renderBacklink(box, row, actions);
	}
}

function renderLink(parent: HTMLElement, link: LinkResult, actions: PanelActions): void {
	const item = parent.createDiv('vault-query-panel-row');
	const title = item.createDiv({ cls: 'vault-query-panel-row-title', text: link.linkpath });
	if (link.count > 1) title.createSpan({ cls: 'vault-query-count', text: ` ×${link.count}` });
	const resolved = linkPathLine(item, link, 'Not created yet');
	if (resolved !== null) activatable(title, (evt) => actions.open(resolved, undefined, evt), `Open ${link.linkpath}`);
}

function renderOutgoing(parent: HTMLElement, model: PanelModel, actions: PanelActions): void {
	const { resolved, unresolved } = model.outgoing;
	const body = section(parent, 'mod-outgoing', 'Outgoing links', resolved.length + unresolved.length);
	if (resolved.length + unresolved.length === 0) empty(body, 'This note links nowhere.');
	for (const link of resolved) renderLink(body, link, actions);
	if (unresolved.length > 0) {
		body.createDiv({ cls: 'vault-query-panel-group-label', text: `Unresolved (${unresolved.length})` });
		for (const link of unresolved) renderLink(body, link, actions);
	}
}

function renderTagNodes(parent: HTMLElement, nodes: readonly TagNode[], actions: PanelActions): void {
	const list = parent.createEl('ul', { cls: 'vault-query-tag-tree' });
	for (const node of nodes) {
		const li = list.createEl('li');
		const tag = li.createSpan({ cls: ['vault-query-tag', node.own ? 'is-own' : 'is-parent'], text: node.name });
		activatable(tag, () => actions.showTag(node.tag), `Notes tagged ${node.tag}`);
		if (node.children.length > 0) renderTagNodes(li, node.children, actions);
	}
}

function renderSharing(parent: HTMLElement, rows: readonly SharingRow[], actions: PanelActions): void {
	const body = section(parent, 'mod-sharing', 'Notes sharing its tags', rows.length);
	if (rows.length === 0) empty(body, 'No other note carries these tags.');
	for (const row of rows) {
		const item = body.createDiv('vault-query-panel-row');
		const title = item.createDiv({ cls: 'vault-query-panel-row-title', text: row.title });
		activatable(title, (evt) => actions.open(row.path, undefined, evt), `Open ${row.title}`);
		const tags = item.createDiv('vault-query-hit-tags');
		for (const tag of row.shared) tags.createSpan({ cls: 'vault-query-tag', text: tag });
	}
}

/** Renders the note's sections into `el` (emptied first). */
export function renderPanelModel(el: HTMLElement, model: PanelModel, actions: PanelActions): void {
	el.empty();
	const header = el.createDiv('vault-query-panel-note');
	const title = header.createDiv({ cls: 'vault-query-panel-title', text: model.title });
	activatable(title, (evt) => actions.open(model.path, undefined, evt), `Open ${model.title}`);
	header.createDiv({ cls: 'vault-query-result-path', text: model.path });
	if (model.error !== null) el.createDiv({ cls: 'vault-query-error', text: model.error });
	renderBacklinks(el, model, actions);
	renderOutgoing(el, model, actions);
	const tags = section(el, 'mod-tags', 'Tags', null);
	if (model.tags.length === 0) empty(tags, 'No tags.');
	else renderTagNodes(tags, model.tags, actions);
	renderSharing(el, model.sharing, actions);
}
