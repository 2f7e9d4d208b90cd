import { Notice, TFile, type App } from 'obsidian';
import { getAllTags } from '../core/obsidian-rules';
import type { NoteSource } from '../core/port';
import type { SearchHit } from '../core/search/search';

/** Small facts about a note that several faces show or act on: its tags, where a hit is, a link to it. */

/** The note's tags (frontmatter and inline, Obsidian's rules) as written, `#` first, each once (case-insensitively). */
export function noteTags(source: NoteSource, path: string): string[] {
	const meta = source.getMetadata(path);
	if (!meta) return [];
	const seen = new Set<string>();
	const out: string[] = [];
	for (const raw of getAllTags(meta)) {
		const tag = raw.startsWith('#') ? raw : `#${raw}`;
		const key = tag.toLowerCase();
		if (seen.has(key)) continue;
		seen.add(key);
		out.push(tag);
	}
	return out;
}

/** The excerpt without the ellipses that mark where it was clipped. */
function excerptCore(excerpt: string): string {
	return excerpt.replace(/^…/, '').replace(/…$/, '').trim();
}

const PROBE_CHARS = 40; // why: long enough to be unique in a note, short enough to sit on one line.

/**
 * The 1-based line a hit points at: the line its excerpt comes from (searched from its section's
 * heading on), else the heading itself, else undefined (the top of the note).
 */
export async function hitLine(source: NoteSource, hit: SearchHit): Promise<number | undefined> {
	const heading = hit.section === null ? undefined : source.getMetadata(hit.path)?.headings?.find((h) => h.heading === hit.section);
	const from = heading?.position.start.line ?? 0;
	const probe = excerptCore(hit.excerpt).slice(0, PROBE_CHARS);
	if (probe !== '') {
		try {
			const lines = (await source.read(hit.path)).split('\n');
			for (let i = from; i < lines.length; i++) if (lines[i].includes(probe)) return i + 1;
		} catch {
			// The note went away since the search: open at the heading, or the top.
		}
	}
	return heading === undefined ? undefined : from + 1;
}

/** Inserts a link to `path` at the cursor of the active editor (the user's link format); false after a notice when there is none. */
export function insertLinkAtCursor(app: App, path: string): boolean {
	const active = app.workspace.activeEditor;
	const file = app.vault.getAbstractFileByPath(path);
	if (!active?.editor || !(file instanceof TFile)) {
		new Notice(file instanceof TFile ? 'Open a note in the editor to insert a link.' : `${path} is no longer in the vault.`);
		return false;
	}
	active.editor.replaceSelection(app.fileManager.generateMarkdownLink(file, active.file?.path ?? ''));
	return true;
}
