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
function makeEl<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	o?: DomElementInfo | string,
	callback?: (el: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
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
	const appendEl = <K extends keyof HTMLElementTagNameMap>(
		parent: Node,
		tag: K,
		o?: DomElementInfo | string,
		cb?: (el: HTMLElementTagNameMap[K]) => void,
	): HTMLElementTagNameMap[K] => {
		const info: DomElementInfo = typeof o === 'string' ? { cls: o } : { ...(o ?? {}) };
		info.parent = parent;
		return makeEl(tag, info, cb);
	};
	define(
		node,
		'createEl',
		function (
			this: Node,
			tag: keyof HTMLElementTagNameMap,
			o?: DomElementInfo | string,
			cb?: (el: HTMLElement) => void,
		) {
			return appendEl(this, tag, o, cb);
		},
	);
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
		if (list)
			this.handlers.set(
				name,
				list.filter((ref) => ref.fn !== callback),
			);
	}

	offref(ref: EventRef): void {
		const list = this.handlers.get(ref.name);
		if (list)
			this.handlers.set(
				ref.name,
				list.filter((r) => r !== ref),
			);
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

	registerDomEvent(
		el: EventTarget,
		type: string,
		callback: (ev: Event) => unknown,
		options?: boolean | AddEventListenerOptions,
	): void {
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

/** Obsidian's internal view registry (`app.viewRegistry`), the part `registerView` uses. */
interface ViewRegistry {
	registerView(type: string, creator: ViewCreator): void;
	unregisterView(type: string): void;
}

/** Obsidian's internal settings dialog (`app.setting`), the part `addSettingTab` uses. */
interface SettingRegistry {
	addSettingTab(tab: PluginSettingTab): void;
	removeSettingTab(tab: PluginSettingTab): void;
}

/** `app[name]` when it is an object with a `method` function, else null. */
function appPart<T>(app: unknown, name: string, method: string): T | null {
	if (typeof app !== 'object' || app === null || !(name in app)) return null;
	const part: unknown = (app as Record<string, unknown>)[name];
	if (typeof part !== 'object' || part === null || !(method in part)) return null;
	return typeof (part as Record<string, unknown>)[method] === 'function' ? (part as T) : null;
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

/** A flag of an Obsidian CLI handler (obsidian.d.ts `CliFlag`). */
export interface CliFlag {
	value?: string;
	description: string;
	required?: boolean;
}
/** Flags by name (obsidian.d.ts `CliFlags`). */
export type CliFlags = Record<string, CliFlag>;
/** What a CLI call passes (obsidian.d.ts `CliData`). */
export type CliData = Record<string, string>;
/** A CLI handler (obsidian.d.ts `CliHandler`). */
export type CliHandler = (params: CliData) => string | Promise<string>;
/** Registered CLI handlers by command id — the stub's stand-in for the `obsidian` CLI's registry. */
export const cliHandlers = new Map<
	string,
	{ app: unknown; description: string; flags: CliFlags | null; handler: CliHandler }
>();

/** A Bases view type a plugin registered (Obsidian 1.10+): its name, icon and factory. */
export interface BasesViewRegistrationStub {
	name: string;
	icon: string;
	factory: (controller: QueryController, containerEl: HTMLElement) => BasesView;
}

/**
 * Bases view types registered through `Plugin.registerBasesView`, by id. Tests call a factory as
 * Obsidian does when a user picks the view type in a base's view menu.
 */
export const basesViews = new Map<string, { app: unknown; registration: BasesViewRegistrationStub }>();

/**
 * Obsidian's `QueryController` (opaque in obsidian.d.ts). The stub's carries the app, which
 * Obsidian hands a `BasesView` internally — a simplification so a test can make one.
 */
export class QueryController extends Component {
	constructor(readonly app: unknown) {
		super();
	}
}

/** Obsidian's `BasesView`: the app, the view's config and the latest query result (set by the test, as Obsidian sets them). */
export abstract class BasesView extends Component {
	abstract type: string;
	app: unknown;
	config: { name: string; get(key: string): unknown } | undefined;
	allProperties: string[] = [];
	data: { data: { file: TFile }[] } = { data: [] };

	protected constructor(controller: QueryController) {
		super();
		this.app = controller.app;
	}

	abstract onDataUpdated(): void;
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
		const registered: Command = {
			...command,
			id: `${this.manifest.id}:${command.id}`,
			name: `${this.manifest.name}: ${command.name}`,
		};
		const registry = commandRegistry(this.app);
		if (registry) {
			registry.addCommand(registered);
			this.register(() => registry.removeCommand(registered.id));
		}
		return registered;
	}

	/** Forwards to the app's view registry (Obsidian's internal `app.viewRegistry`) when the (fake) app has one. */
	registerView(type: string, viewCreator: ViewCreator): void {
		const registry = appPart<ViewRegistry>(this.app, 'viewRegistry', 'registerView');
		if (!registry) return;
		registry.registerView(type, viewCreator);
		this.register(() => registry.unregisterView(type));
	}

	/**
	 * A ribbon button (`div.side-dock-ribbon-action.clickable-icon` with the title as its
	 * aria-label), put in the page's `.side-dock-ribbon` when there is one; removed on unload.
	 */
	addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = makeEl('div', {
			cls: 'side-dock-ribbon-action clickable-icon',
			attr: { 'aria-label': title, role: 'button', tabindex: 0 },
		});
		setIcon(el, icon);
		el.addEventListener('click', (evt) => callback(evt));
		document.body.querySelector('.side-dock-ribbon')?.appendChild(el);
		this.register(() => el.detach());
		return el;
	}

	/**
	 * Obsidian 1.12.2+: a handler for `obsidian <command> key=value …`. Like Obsidian, a command id
	 * registered twice throws; the handler goes away when the plugin unloads. Tests call handlers
	 * through {@link cliHandlers}, as the `obsidian` CLI would (flags as strings, bare flags `'true'`).
	 * A test simulating an older Obsidian deletes this method from the prototype.
	 */
	registerCliHandler(command: string, description: string, flags: CliFlags | null, handler: CliHandler): void {
		// One registry per running Obsidian: tests start many apps in one process and do not
		// always unload their plugins, so an id held by another app's plugin is simply replaced.
		if (cliHandlers.get(command)?.app === this.app) throw new Error(`CLI command already registered: ${command}`);
		cliHandlers.set(command, { app: this.app, description, flags, handler });
		this.register(() => {
			if (cliHandlers.get(command)?.handler === handler) cliHandlers.delete(command);
		});
	}

	/** Obsidian 1.10+: a Bases view type, kept in {@link basesViews} until the plugin unloads; true (bases enabled). */
	registerBasesView(viewId: string, registration: BasesViewRegistrationStub): boolean {
		basesViews.set(viewId, { app: this.app, registration });
		this.register(() => {
			if (basesViews.get(viewId)?.registration === registration) basesViews.delete(viewId);
		});
		return true;
	}

	/** Forwards to the app's settings dialog (Obsidian's internal `app.setting`) when the (fake) app has one. */
	addSettingTab(tab: PluginSettingTab): void {
		const setting = appPart<SettingRegistry>(this.app, 'setting', 'addSettingTab');
		if (!setting) return;
		setting.addSettingTab(tab);
		this.register(() => setting.removeSettingTab(tab));
	}

	/** Like Obsidian: a code block post processor for `language`, registered globally until unload. */
	registerMarkdownCodeBlockProcessor(
		language: string,
		handler: CodeBlockHandler,
		sortOrder?: number,
	): MarkdownPostProcessor {
		const processor: MarkdownPostProcessor = MarkdownPreviewRenderer.createCodeBlockPostProcessor(
			language,
			handler,
		);
		if (sortOrder !== undefined) processor.sortOrder = sortOrder;
		MarkdownPreviewRenderer.registerPostProcessor(processor);
		this.register(() => MarkdownPreviewRenderer.unregisterPostProcessor(processor));
		return processor;
	}

	async loadData(): Promise<unknown> {
		return this.data === null ? null : JSON.parse(this.data);
	}

	async saveData(data: unknown): Promise<void> {
		this.data = JSON.stringify(data);
	}
}

/* ------------------------------------------------------------------ keys */

/** Obsidian's `Modifier`. */
export type Modifier = 'Mod' | 'Ctrl' | 'Meta' | 'Shift' | 'Alt';

/** Obsidian's `KeymapEventListener`: return `false` to consume the key (default prevented). */
export type KeymapEventListener = (evt: KeyboardEvent, ctx: unknown) => unknown;

/** Obsidian's `KeymapEventHandler`. */
export interface KeymapEventHandler {
	scope: Scope;
	modifiers: string | null;
	key: string | null;
	func: KeymapEventListener;
}

/** The modifiers held during `evt`, as Obsidian names them (Ctrl and Meta both count as Mod here). */
function heldModifiers(evt: KeyboardEvent): Set<string> {
	const held = new Set<string>();
	if (evt.ctrlKey || evt.metaKey) held.add('Mod');
	if (evt.shiftKey) held.add('Shift');
	if (evt.altKey) held.add('Alt');
	return held;
}

/**
 * Obsidian's `Scope`: key handlers matched on the exact set of modifiers (`null`: any) and the
 * key, case-insensitively (`['Mod', 'Shift'], 'c'` matches Ctrl+Shift+C). The stub simplifies
 * Ctrl and Meta to Mod. `handleKey` is not in Obsidian's typings: the stub's modals call it
 * where Obsidian's global keymap would.
 */
export class Scope {
	private readonly handlers: KeymapEventHandler[] = [];

	constructor(readonly parent?: Scope) {}

	register(modifiers: Modifier[] | null, key: string | null, func: KeymapEventListener): KeymapEventHandler {
		const names =
			modifiers === null
				? null
				: [...new Set(modifiers.map((m) => (m === 'Ctrl' || m === 'Meta' ? 'Mod' : m)))].sort().join(',');
		const handler: KeymapEventHandler = { scope: this, modifiers: names, key, func };
		this.handlers.push(handler);
		return handler;
	}

	unregister(handler: KeymapEventHandler): void {
		const at = this.handlers.indexOf(handler);
		if (at >= 0) this.handlers.splice(at, 1);
	}

	/** Runs the first matching handler; true when one matched. */
	handleKey(evt: KeyboardEvent): boolean {
		const held = [...heldModifiers(evt)].sort().join(',');
		for (const handler of this.handlers) {
			if (handler.modifiers !== null && handler.modifiers !== held) continue;
			if (handler.key !== null && handler.key.toLowerCase() !== evt.key.toLowerCase()) continue;
			if (handler.func(evt, { modifiers: held, key: evt.key, vkey: evt.key }) === false) evt.preventDefault();
			return true;
		}
		return this.parent?.handleKey(evt) ?? false;
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
	scope: Scope;
	shouldRestoreSelection = false;
	private isOpen = false;

	constructor(app: unknown) {
		this.app = app;
		this.scope = new Scope();
		this.scope.register([], 'Escape', () => {
			this.close();
			return false;
		});
		this.containerEl = makeEl('div', 'modal-container mod-dim');
		// Obsidian's keymap sees every key while the modal is open; a capture listener does here.
		this.containerEl.addEventListener('keydown', (evt) => this.scope.handleKey(evt), true);
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
		// Like Obsidian: plain Enter chooses, plain arrows move; other modifiers are the subclass's to bind.
		this.scope.register([], 'Enter', (evt) => this.choose(evt));
		this.scope.register([], 'ArrowDown', () => this.move(1));
		this.scope.register([], 'ArrowUp', () => this.move(-1));
	}

	override open(): void {
		super.open();
		// Like Obsidian, the prompt opens with the input focused.
		this.inputEl.focus();
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

	/**
	 * Not in Obsidian's typings: resolves once the suggestions for the current input are rendered.
	 * For tests to wait on (never on a time), the modal element then carries the query rendered
	 * (`data-rendered-query`) and how many renderings there were (`data-renders`).
	 */
	async updateSuggestions(): Promise<void> {
		const token = ++this.renderToken;
		const query = this.inputEl.value;
		const values = await this.getSuggestions(query);
		if (token !== this.renderToken) return;
		this.values = values.slice(0, this.limit);
		this.selected = 0;
		if (this.values.length === 0) this.onNoSuggestion();
		else {
			this.resultContainerEl.empty();
			this.values.forEach((value, i) => {
				const el = this.resultContainerEl.createDiv('suggestion-item');
				if (i === this.selected) el.addClass('is-selected');
				this.renderSuggestion(value, el);
				el.addEventListener('click', (evt) => this.selectSuggestion(value, evt));
			});
		}
		this.modalEl.setAttribute('data-rendered-query', query);
		this.modalEl.setAttribute('data-renders', String(Number(this.modalEl.getAttribute('data-renders') ?? 0) + 1));
	}

	private choose(evt: KeyboardEvent): false {
		const value = this.values[this.selected];
		if (value !== undefined) this.selectSuggestion(value, evt);
		return false;
	}

	private move(step: number): false {
		if (this.values.length === 0) return false;
		this.selected = (this.selected + step + this.values.length) % this.values.length;
		const items = this.resultContainerEl.querySelectorAll('.suggestion-item');
		items.forEach((el, i) => el.toggleClass('is-selected', i === this.selected));
		return false;
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

/** The Obsidian version the stub stands for (the `obsidian` package's). */
const STUB_API_VERSION = '1.13.1';

/** Obsidian's `requireApiVersion`: whether the running Obsidian is at least `version` (the stub is {@link STUB_API_VERSION}). */
export function requireApiVersion(version: string): boolean {
	const want = version.split('.').map(Number);
	const have = STUB_API_VERSION.split('.').map(Number);
	for (let i = 0; i < Math.max(want.length, have.length); i++) {
		const a = have[i] ?? 0;
		const b = want[i] ?? 0;
		if (a !== b) return a > b;
	}
	return true;
}

/** Obsidian's `Platform`, as on a Linux desktop (what the tests and the browser harness run on). */
export const Platform = {
	isDesktop: true,
	isMobile: false,
	isDesktopApp: true,
	isMobileApp: false,
	isIosApp: false,
	isAndroidApp: false,
	isPhone: false,
	isTablet: false,
	isMacOS: false,
	isWin: false,
	isLinux: true,
	isSafari: false,
	resourcePathPrefix: 'app://local/',
};

/** Obsidian's `Debouncer`. */
export interface Debouncer<T extends unknown[], V> {
	(...args: [...T]): Debouncer<T, V>;
	cancel(): Debouncer<T, V>;
	run(): V | void;
}

/**
 * Obsidian's `debounce`: `cb` runs `timeout` ms after the first call of a burst (after the last
 * one with `resetTimer`), with the latest arguments; `cancel` drops it, `run` runs it now.
 */
export function debounce<T extends unknown[], V>(
	cb: (...args: [...T]) => V,
	timeout = 0,
	resetTimer = false,
): Debouncer<T, V> {
	let timer: number | null = null;
	let pending: [...T] | null = null;
	const fire = (): V | void => {
		if (timer !== null) window.clearTimeout(timer);
		timer = null;
		const args = pending;
		pending = null;
		if (args !== null) return cb(...args);
	};
	const debounced = ((...args: [...T]) => {
		pending = args;
		if (timer !== null && resetTimer) {
			window.clearTimeout(timer);
			timer = null;
		}
		// clock-ok: Obsidian's debounce itself, which the plugin's code runs on (tests wait for its effect)
		if (timer === null) timer = window.setTimeout(fire, timeout);
		return debounced;
	}) as Debouncer<T, V>;
	debounced.cancel = () => {
		if (timer !== null) window.clearTimeout(timer);
		timer = null;
		pending = null;
		return debounced;
	};
	debounced.run = fire;
	return debounced;
}

/**
 * Obsidian's `setIcon`: replaces the element's content with the icon's `svg.svg-icon`. The stub
 * draws no shape: the class names which icon it is (`lucide-<id>`).
 */
export function setIcon(parent: HTMLElement, iconId: string): void {
	parent.empty();
	const svg = document['createElementNS']('http://www.w3.org/2000/svg', 'svg');
	svg.setAttribute('class', `svg-icon lucide-${iconId}`);
	svg.setAttribute('viewBox', '0 0 24 24');
	parent.appendChild(svg);
}

/* ------------------------------------------------------------------ views */

/** The part of a workspace leaf the stub's views read (the fake workspace's leaves have it). */
export interface LeafLike {
	app?: unknown;
}

/** Obsidian's `ViewCreator`. */
export type ViewCreator = (leaf: never) => View;

/**
 * Obsidian's `View`: `containerEl` is `div.workspace-leaf-content[data-type]`. `open`/`close` are
 * not in Obsidian's typings: the fake workspace's leaves call them as Obsidian's leaves do
 * (load, then `onOpen`; `onClose`, then unload).
 */
export abstract class View extends Component {
	app: unknown;
	icon = '';
	navigation = false;
	leaf: LeafLike;
	containerEl: HTMLElement;
	scope: Scope | null = null;

	constructor(leaf: LeafLike) {
		super();
		this.leaf = leaf;
		this.app = leaf.app;
		this.containerEl = makeEl('div', 'workspace-leaf-content');
	}

	abstract getViewType(): string;
	abstract getDisplayText(): string;

	getIcon(): string {
		return this.icon;
	}

	protected async onOpen(): Promise<void> {}

	protected async onClose(): Promise<void> {}

	/** Not in the typings: attach to `parentEl`, load, then `onOpen`. */
	async open(parentEl: HTMLElement): Promise<void> {
		this.containerEl.setAttr('data-type', this.getViewType());
		parentEl.appendChild(this.containerEl);
		this.load();
		await this.onOpen();
	}

	/** Not in the typings: `onClose`, unload, detach. */
	async close(): Promise<void> {
		await this.onClose();
		this.unload();
		this.containerEl.detach();
	}
}

/** Obsidian's `ItemView`: `div.view-header` (title, actions) and `div.view-content` (`contentEl`). */
export abstract class ItemView extends View {
	contentEl: HTMLElement;
	private readonly headerEl: HTMLElement;
	private readonly actionsEl: HTMLElement;

	constructor(leaf: LeafLike) {
		super(leaf);
		this.headerEl = this.containerEl.createDiv('view-header');
		this.headerEl.createDiv('view-header-title');
		this.actionsEl = this.headerEl.createDiv('view-actions');
		this.contentEl = this.containerEl.createDiv('view-content');
	}

	addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.actionsEl.createEl('a', { cls: 'clickable-icon view-action', attr: { 'aria-label': title } });
		setIcon(el, icon);
		el.addEventListener('click', (evt) => callback(evt));
		return el;
	}

	override async open(parentEl: HTMLElement): Promise<void> {
		this.headerEl.querySelector('.view-header-title')?.setText(this.getDisplayText());
		await super.open(parentEl);
	}
}

/* ------------------------------------------------------------------ Markdown post processing */

/** Obsidian's `MarkdownPostProcessorContext` (the fields our code reads). */
export interface MarkdownPostProcessorContext {
	docId: string;
	sourcePath: string;
	frontmatter: unknown;
	addChild(child: MarkdownRenderChild): void;
	getSectionInfo(el: HTMLElement): unknown;
}

/** Obsidian's `MarkdownPostProcessor`. */
export interface MarkdownPostProcessor {
	(el: HTMLElement, ctx: MarkdownPostProcessorContext): Promise<unknown> | void;
	sortOrder?: number;
}

/** The handler of a code block processor. */
type CodeBlockHandler = (source: string, el: HTMLElement, ctx: MarkdownPostProcessorContext) => Promise<unknown> | void;

/** Obsidian's `MarkdownRenderChild`: a component tied to an element of rendered Markdown. */
export class MarkdownRenderChild extends Component {
	containerEl: HTMLElement;

	constructor(containerEl: HTMLElement) {
		super();
		this.containerEl = containerEl;
	}
}

/**
 * Obsidian's `MarkdownPreviewRenderer` (its static post-processor registry). A code block
 * processor replaces each `pre > code.language-<lang>` with `div.block-language-<lang>` and calls
 * the handler with the code's text, as Obsidian does. `postProcessors` is not in the typings:
 * tests run what is registered over rendered HTML.
 */
export class MarkdownPreviewRenderer {
	static readonly postProcessors: MarkdownPostProcessor[] = [];

	static registerPostProcessor(postProcessor: MarkdownPostProcessor, sortOrder?: number): void {
		if (sortOrder !== undefined) postProcessor.sortOrder = sortOrder;
		MarkdownPreviewRenderer.postProcessors.push(postProcessor);
	}

	static unregisterPostProcessor(postProcessor: MarkdownPostProcessor): void {
		const at = MarkdownPreviewRenderer.postProcessors.indexOf(postProcessor);
		if (at >= 0) MarkdownPreviewRenderer.postProcessors.splice(at, 1);
	}

	static createCodeBlockPostProcessor(language: string, handler: CodeBlockHandler): MarkdownPostProcessor {
		return async (el, ctx) => {
			for (const code of [...el.querySelectorAll(`pre > code.language-${language}`)]) {
				const pre = code.parentElement;
				if (!pre) continue;
				const block = makeEl('div', `block-language-${language}`);
				pre.replaceWith(block);
				await handler((code.textContent ?? '').replace(/\n$/, ''), block, ctx);
			}
		};
	}
}

/* ------------------------------------------------------------------ settings */

/** Obsidian's `PluginSettingTab`: `containerEl` is `div.vertical-tab-content`; `hide` empties it. */
export abstract class PluginSettingTab {
	app: unknown;
	plugin: Plugin;
	containerEl: HTMLElement;

	constructor(app: unknown, plugin: Plugin) {
		this.app = app;
		this.plugin = plugin;
		this.containerEl = makeEl('div', 'vertical-tab-content');
	}

	abstract display(): void;

	hide(): void {
		this.containerEl.empty();
	}
}

/** Obsidian's `ButtonComponent`: a `button` (`mod-cta` when it is the call to action). */
export class ButtonComponent {
	buttonEl: HTMLButtonElement;
	disabled = false;

	constructor(containerEl: HTMLElement) {
		this.buttonEl = containerEl.createEl('button');
	}

	setButtonText(name: string): this {
		this.buttonEl.setText(name);
		return this;
	}

	setCta(): this {
		this.buttonEl.addClass('mod-cta');
		return this;
	}

	setTooltip(tooltip: string): this {
		this.buttonEl.setAttr('aria-label', tooltip);
		return this;
	}

	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		this.buttonEl.disabled = disabled;
		return this;
	}

	onClick(callback: (evt: MouseEvent) => unknown): this {
		this.buttonEl.addEventListener('click', (evt) => callback(evt));
		return this;
	}
}

/** Obsidian's `AbstractTextComponent`: `onChange` fires on every `input` event. */
abstract class AbstractTextComponent<E extends HTMLInputElement | HTMLTextAreaElement> {
	inputEl: E;
	disabled = false;

	constructor(inputEl: E) {
		this.inputEl = inputEl;
	}

	getValue(): string {
		return this.inputEl.value;
	}

	setValue(value: string): this {
		this.inputEl.value = value;
		return this;
	}

	setPlaceholder(placeholder: string): this {
		this.inputEl.setAttr('placeholder', placeholder);
		return this;
	}

	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		this.inputEl.disabled = disabled;
		return this;
	}

	onChange(callback: (value: string) => unknown): this {
		this.inputEl.addEventListener('input', () => callback(this.inputEl.value));
		return this;
	}
}

/** Obsidian's `TextComponent`: `input[type=text]`. */
export class TextComponent extends AbstractTextComponent<HTMLInputElement> {
	constructor(containerEl: HTMLElement) {
		super(containerEl.createEl('input', { type: 'text' }));
	}
}

/** Obsidian's `TextAreaComponent`: a `textarea`. */
export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> {
	constructor(containerEl: HTMLElement) {
		super(containerEl.createEl('textarea'));
	}
}

/** Obsidian's `ToggleComponent`: `div.checkbox-container` (`is-enabled` when on) around a checkbox. */
export class ToggleComponent {
	toggleEl: HTMLElement;
	private value = false;
	private readonly callbacks: ((value: boolean) => unknown)[] = [];

	constructor(containerEl: HTMLElement) {
		this.toggleEl = containerEl.createDiv('checkbox-container');
		this.toggleEl.createEl('input', { type: 'checkbox', attr: { tabindex: 0 } });
		this.toggleEl.addEventListener('click', (evt) => {
			evt.preventDefault();
			this.setValue(!this.value);
			for (const cb of this.callbacks) cb(this.value);
		});
	}

	getValue(): boolean {
		return this.value;
	}

	setValue(on: boolean): this {
		this.value = on;
		this.toggleEl.toggleClass('is-enabled', on);
		const box = this.toggleEl.querySelector('input');
		if (box) box.checked = on;
		return this;
	}

	setTooltip(tooltip: string): this {
		this.toggleEl.setAttr('aria-label', tooltip);
		return this;
	}

	onChange(callback: (value: boolean) => unknown): this {
		this.callbacks.push(callback);
		return this;
	}
}

/** Obsidian's `DropdownComponent`: a `select.dropdown`; `onChange` fires on the select's change event. */
export class DropdownComponent {
	selectEl: HTMLSelectElement;

	constructor(containerEl: HTMLElement) {
		this.selectEl = containerEl.createEl('select', { cls: 'dropdown' });
	}

	addOption(value: string, display: string): this {
		this.selectEl.createEl('option', { text: display, attr: { value } });
		return this;
	}

	addOptions(options: Record<string, string>): this {
		for (const [value, display] of Object.entries(options)) this.addOption(value, display);
		return this;
	}

	getValue(): string {
		return this.selectEl.value;
	}

	setValue(value: string): this {
		this.selectEl.value = value;
		return this;
	}

	onChange(callback: (value: string) => unknown): this {
		this.selectEl.addEventListener('change', () => callback(this.selectEl.value));
		return this;
	}
}

/**
 * Obsidian's `Setting`: `div.setting-item > div.setting-item-info > (div.setting-item-name,
 * div.setting-item-description)`, then `div.setting-item-control` holding the components.
 * `setHeading` adds `setting-item-heading`.
 */
export class Setting {
	settingEl: HTMLElement;
	infoEl: HTMLElement;
	nameEl: HTMLElement;
	descEl: HTMLElement;
	controlEl: HTMLElement;
	components: unknown[] = [];

	constructor(containerEl: HTMLElement) {
		this.settingEl = containerEl.createDiv('setting-item');
		this.infoEl = this.settingEl.createDiv('setting-item-info');
		this.nameEl = this.infoEl.createDiv('setting-item-name');
		this.descEl = this.infoEl.createDiv('setting-item-description');
		this.controlEl = this.settingEl.createDiv('setting-item-control');
	}

	setName(name: string | DocumentFragment): this {
		this.nameEl.setText(name);
		return this;
	}

	setDesc(desc: string | DocumentFragment): this {
		this.descEl.setText(desc);
		return this;
	}

	setClass(cls: string): this {
		this.settingEl.addClass(cls);
		return this;
	}

	setHeading(): this {
		this.settingEl.addClass('setting-item-heading');
		return this;
	}

	setDisabled(disabled: boolean): this {
		this.settingEl.toggleClass('is-disabled', disabled);
		return this;
	}

	addButton(cb: (component: ButtonComponent) => unknown): this {
		return this.add(new ButtonComponent(this.controlEl), cb);
	}

	addText(cb: (component: TextComponent) => unknown): this {
		return this.add(new TextComponent(this.controlEl), cb);
	}

	addTextArea(cb: (component: TextAreaComponent) => unknown): this {
		return this.add(new TextAreaComponent(this.controlEl), cb);
	}

	addToggle(cb: (component: ToggleComponent) => unknown): this {
		return this.add(new ToggleComponent(this.controlEl), cb);
	}

	addDropdown(cb: (component: DropdownComponent) => unknown): this {
		return this.add(new DropdownComponent(this.controlEl), cb);
	}

	private add<C>(component: C, cb: (component: C) => unknown): this {
		this.components.push(component);
		cb(component);
		return this;
	}
}
