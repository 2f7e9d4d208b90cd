/**
 * A base answered over a vault: locate it, read its YAML through the host, build the vault's
 * typed data from the engine's source (Obsidian-exact properties, tags, resolved links, backlinks),
 * and run one view — or list the views. The result is the `vault-query base --json` object.
 */
import { markFailed } from '../failure';
import type { Status } from '../contract';
import type { NoteSource } from '../port';
import type { ScopeRules } from '../scope';
import type { BaseData, FileStat } from './data';
import { FileModel } from './data';
import { BaseError } from './errors';
import { Evaluator } from './evaluate';
import { readBaseFile, type BaseFile } from './file-model';
import { locateBase } from './locate';
import { runView, type BaseColumn, type BaseGroup, type BaseRow } from './view';

/** What to evaluate. */
export interface BaseRequest {
	/** A `.base` file (path or name, optionally `#View`), or `NOTE#base`. */
	base: string;
	/** The view by name; the first view when absent. */
	view?: string;
	/** The note `this` stands for (default: the base file, or the note holding the block). */
	this?: string;
	/** At most this many rows (overrides the view's own limit). */
	limit?: number;
	/** Only list the views. */
	list?: boolean;
	/** The clock for `now()` and `today()`, in ms (default: now). */
	now?: number;
}

/** The answer: the `--json` contract. */
export interface BaseResult {
	status: Status;
	base: string;
	view: string | null;
	this: string | null;
	views: { name: string; type: string }[];
	columns: BaseColumn[];
	/** Rows the filters kept, before the limit. */
	matched: number;
	rows: BaseRow[];
	groups?: BaseGroup[];
	summaries?: Record<string, unknown>;
	limitations: string[];
	error?: string;
}

/** What the engine lends a base: its source, scope rules and backlinks. */
export interface BaseHost {
	source: NoteSource;
	rules: ScopeRules;
	backlinks(path: string): readonly string[];
	/** Notes the name `this` is given as are found among these. */
	findThis(name: string): string;
}

/** Evaluate `request` (never throws for a bad base: the result is `failed` with the reason). */
export async function runBase(host: BaseHost, request: BaseRequest): Promise<BaseResult> {
	const result: BaseResult = {
		status: 'success',
		base: request.base,
		view: null,
		this: null,
		views: [],
		columns: [],
		matched: 0,
		rows: [],
		limitations: [],
	};
	try {
		const located = await locateBase(host.source, request.base);
		result.base = located.label;
		const base = parse(host.source, located.text);
		result.views = base.views.map((v) => ({ name: v.name, type: v.type }));
		if (request.list) return result;
		const wanted = request.view ?? located.view;
		const view =
			wanted === null || wanted === undefined ? base.views[0] : base.views.find((v) => v.name === wanted);
		if (!view) {
			const names = base.views.map((v) => `"${v.name}"`).join(', ');
			throw new BaseError(
				wanted
					? `view: no view "${wanted}" in ${located.label} (views: ${names || 'none'})`
					: `view: ${located.label} has no views`,
			);
		}
		result.view = view.name;
		const thisPath = request.this !== undefined ? host.findThis(request.this) : located.thisPath;
		result.this = thisPath;
		const data = await baseData(host);
		const ev = new Evaluator(new FileModel(data), base.formulas, thisPath, request.now ?? Date.now());
		const outcome = runView(base, view, data.files(), ev, request.limit ?? null);
		Object.assign(result, { columns: outcome.columns, matched: outcome.matched, rows: outcome.rows });
		if (outcome.groups) result.groups = outcome.groups;
		if (outcome.summaries) result.summaries = outcome.summaries;
		if (outcome.rows.length < outcome.matched)
			result.limitations.push(`showing ${outcome.rows.length} of ${outcome.matched} rows (limit)`);
		if (outcome.problems.length > 0) {
			result.status = 'partial';
			result.limitations.push(...outcome.problems);
		}
		const excluded = host.source.listFiles().length - data.files().length;
		if (excluded > 0)
			result.limitations.push(`Not searched: ${excluded} file(s) left out by the vault's exclusions`);
		return result;
	} catch (error) {
		if (!(error instanceof BaseError)) throw error;
		return markFailed({ ...result, columns: [], rows: [], matched: 0 }, error.message);
	}
}

function parse(source: NoteSource, text: string): BaseFile {
	let raw: unknown;
	try {
		raw = source.parseYaml(text);
	} catch (error) {
		throw new BaseError(
			`base: not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
		);
	}
	return readBaseFile(raw);
}

/** The vault as a base sees it, from the engine's source. */
export async function baseData(host: BaseHost): Promise<BaseData> {
	const { source, rules } = host;
	const all = source.listFiles();
	const files = all.filter((p) => rules.ruleFor(p) === null);
	const known = new Set(all);
	const propertyTypes: Record<string, string> = {};
	try {
		const text = await source.readConfigFile('types.json');
		const types = text ? (JSON.parse(text) as { types?: Record<string, unknown> }).types : undefined;
		for (const [k, v] of Object.entries(types ?? {})) if (typeof v === 'string') propertyTypes[k.toLowerCase()] = v;
	} catch {
		// A broken types.json leaves every property untyped, as Obsidian falls back to guessing.
	}
	return {
		files: () => files,
		exists: (p) => known.has(p),
		metadata: (p) => (p.toLowerCase().endsWith('.md') ? source.getMetadata(p) : null),
		resolve: (linkpath, from) => source.resolveLink(linkpath, from),
		backlinks: (p) => host.backlinks(p),
		stat: (p): FileStat => source.fileStat?.(p) ?? { size: null, ctime: null, mtime: source.getMtime(p) },
		propertyTypes,
	};
}
