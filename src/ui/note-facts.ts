import { Notice, TFile, type App } from 'obsidian';
import { displayTags } from '../core/note-info';
import type { NoteSource } from '../core/port';

/** Small facts about a note that several faces show or act on: its tags, where a hit is, a link to it. */

/** The note's tags as written, `#` first, each once (core's rule, so rows and hits agree). */
export function noteTags(source: NoteSource, path: string): string[] {
	const meta = source.getMetadata(path);
	return meta ? displayTags(meta) : [];
}

/** Inserts a link to `path` at the cursor of the active editor (the user's link format); false after a notice when there is none. */
export function insertLinkAtCursor(app: App, path: string): boolean {
	const active = app.workspace.activeEditor;
	const file = app.vault.getAbstractFileByPath(path);
	if (!active?.editor || !(file instanceof TFile)) {
		new Notice(
			file instanceof TFile
				? 'Open a note in the editor to insert a link.'
				: `${path} is no longer in the vault.`,
		);
		return false;
	}
	active.editor.replaceSelection(app.fileManager.generateMarkdownLink(file, active.file?.path ?? ''));
	return true;
}
