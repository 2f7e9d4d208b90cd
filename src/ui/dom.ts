/** Small DOM habits shared by the faces. */
import type { Setting } from 'obsidian';
import type { LinkResult } from '../core/contract';

/**
 * Makes `el` act as a button for mouse and keyboard: focusable, `role=button`, run by a click
 * and by Enter or Space (the event is passed on, so Mod opens a new tab).
 */
export function activatable(
	el: HTMLElement,
	action: (evt: MouseEvent | KeyboardEvent) => void,
	label?: string,
): HTMLElement {
	el.setAttr('tabindex', 0);
	el.setAttr('role', 'button');
	if (label !== undefined) el.setAttr('aria-label', label);
	el.addEventListener('click', (evt) => {
		evt.stopPropagation();
		action(evt);
	});
	el.addEventListener('keydown', (evt) => {
		if (evt.key !== 'Enter' && evt.key !== ' ') return;
		evt.preventDefault();
		evt.stopPropagation();
		action(evt);
	});
	return el;
}

/** `count one` / `count ones`. */
export function plural(count: number, one: string, many = `${one}s`): string {
	return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/**
 * The line under a link result: the path of the file it resolves to, or `unresolved` with the
 * item marked `is-unresolved`. Returns that path, or null.
 */
export function linkPathLine(item: HTMLElement, link: LinkResult, unresolved: string): string | null {
	const resolved = link.resolved;
	if (resolved === null) item.addClass('is-unresolved');
	item.createDiv({ cls: 'vault-query-result-path', text: resolved ?? unresolved });
	return resolved;
}

/** Adds a button to a settings row that runs `action`, disabled until the action is done. */
export function busyButton(setting: Setting, text: string, tooltip: string, action: () => Promise<void>): void {
	setting.addButton((button) =>
		button
			.setButtonText(text)
			.setTooltip(tooltip)
			.onClick(() => {
				button.setDisabled(true);
				void action().finally(() => button.setDisabled(false));
			}),
	);
}
