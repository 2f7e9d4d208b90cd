import { Keymap, Notice, TFile, type App } from 'obsidian';

/**
 * Opens a vault path, at a 1-based line when given; Mod-click / Mod-Enter opens a new tab.
 * Returns false (after a notice) when the file has gone since the result was shown.
 */
export function openNoteAt(app: App, path: string, line: number | undefined, evt: MouseEvent | KeyboardEvent): boolean {
	const file = app.vault.getAbstractFileByPath(path);
	if (!(file instanceof TFile)) {
		new Notice(`${path} is no longer in the vault.`);
		return false;
	}
	const state = line === undefined ? undefined : { eState: { line: line - 1 } };
	void app.workspace.getLeaf(Keymap.isModEvent(evt)).openFile(file, state);
	return true;
}
