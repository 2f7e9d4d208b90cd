/**
 * How much of a note's frontmatter a result echoes. Nested frontmatter grows when printed: every
 * value of a list nested 60 deep takes a line indented 120 spaces in `--json`, so a 400 KB note
 * printed 26 MB. A result keeps whole properties, in the note's order, while their pretty-printed
 * JSON stays within `ECHO_MAX_BYTES` and `ECHO_MAX_VALUES`; the properties past it are left out of
 * that result (the note and its matching are untouched) and `limitations` names them.
 */
import type { FrontMatter } from './metadata';

/** Most bytes of a note's frontmatter one result echoes, as `--json` prints it (two-space indent, at its depth in the output). */
export const ECHO_MAX_BYTES = 16 * 1024;

/** Most values (scalars, lists and maps, each counted) of a note's frontmatter one result echoes. */
export const ECHO_MAX_VALUES = 1000;

/** Depth of a frontmatter property's value in the printed output (`{ results: [ { frontmatter: { key: … } } ] }`). */
const PROPERTY_DEPTH = 4;

/** What is left to spend while measuring. */
interface Budget {
	bytes: number;
	values: number;
}

/**
 * Spends on `budget` the bytes `value` takes in `JSON.stringify(…, null, 2)` at nesting `depth`
 * (its members' lines indented `2 × (depth + 1)`), and one value per scalar, list and map; returns
 * false as soon as the budget is spent, so a huge value costs no more than the budget to reject.
 */
function spend(value: unknown, depth: number, budget: Budget): boolean {
	budget.values -= 1;
	if (budget.values < 0) return false;
	if (value === null || typeof value !== 'object') {
		budget.bytes -= typeof value === 'string' ? jsonStringBytes(value, budget.bytes) : String(value).length;
		return budget.bytes >= 0;
	}
	const entries: [string | null, unknown][] = Array.isArray(value)
		? value.map((item): [null, unknown] => [null, item])
		: Object.entries(value);
	if (entries.length === 0) {
		budget.bytes -= 2;
		return budget.bytes >= 0;
	}
	// "[\n" … "\n" + indent + "]", and per member: indent, the key and ": ", the value, ",\n".
	budget.bytes -= 4 + 2 * depth;
	for (const [key, item] of entries) {
		budget.bytes -= 2 * (depth + 1) + 2 + (key === null ? 0 : jsonStringBytes(key, budget.bytes) + 2);
		if (budget.bytes < 0 || !spend(item, depth + 1, budget)) return false;
	}
	return true;
}

/** UTF-8 bytes of `text` as a JSON string; past `cap` characters it only says "more than cap". */
function jsonStringBytes(text: string, cap: number): number {
	if (text.length > cap) return cap + 1;
	const json = JSON.stringify(text);
	let bytes = 0;
	for (let i = 0; i < json.length; i++) {
		const code = json.charCodeAt(i);
		// A surrogate half counts 2: a pair is one 4-byte character.
		bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code < 0xe000) ? 2 : 3;
	}
	return bytes;
}

/** A result's share of a note's frontmatter, and the properties left out of it. */
export interface FrontmatterEcho {
	frontmatter: FrontMatter;
	/** Properties left out, in the note's order (empty when the whole frontmatter is echoed). */
	cut: string[];
}

/** The properties of `frontmatter` a result echoes: whole ones, in order, within the byte and value bounds. */
export function echoFrontmatter(frontmatter: FrontMatter): FrontmatterEcho {
	const budget: Budget = { bytes: ECHO_MAX_BYTES, values: ECHO_MAX_VALUES };
	const kept: [string, unknown][] = [];
	const cut: string[] = [];
	for (const [key, value] of Object.entries(frontmatter)) {
		const trial = { ...budget, bytes: budget.bytes - jsonStringBytes(key, budget.bytes) - 4 - 2 * PROPERTY_DEPTH };
		if (budget.values > 0 && trial.bytes >= 0 && spend(value, PROPERTY_DEPTH, trial)) {
			Object.assign(budget, trial);
			kept.push([key, value]);
		} else cut.push(key);
	}
	// fromEntries defines each key as data, so a `__proto__` property stays a property.
	return cut.length === 0 ? { frontmatter, cut } : { frontmatter: Object.fromEntries(kept), cut };
}

/**
 * The `limitations` line for results whose frontmatter was cut (`cuts`: path → properties left
 * out), or null; `total` counts the notes cut when `cuts` holds only the first few.
 */
export function echoLimitation(cuts: ReadonlyMap<string, readonly string[]>, total = cuts.size): string | null {
	if (cuts.size === 0) return null;
	const named = [...cuts].slice(0, 5).map(([path, keys]) => {
		const shown = keys.slice(0, 5).map((k) => (k.length > 40 ? `${k.slice(0, 40)}…` : k));
		return `${path} (${shown.join(', ')}${keys.length > shown.length ? ` and ${keys.length - shown.length} more` : ''})`;
	});
	const more = total > named.length ? ` and ${total - named.length} more notes` : '';
	return `Frontmatter echoed in results is bounded (${ECHO_MAX_BYTES / 1024} KB and ${ECHO_MAX_VALUES} values per note); properties left out of: ${named.join('; ')}${more} — read the note for them`;
}

/** Results with their frontmatter bounded; the line saying what was left out is added to `limitations`. */
export function boundEchoes<T extends { path: string; frontmatter: FrontMatter }>(
	results: T[],
	limitations: string[],
): T[] {
	const cuts = new Map<string, string[]>();
	const bounded = results.map((result) => {
		const echo = echoFrontmatter(result.frontmatter);
		if (echo.cut.length === 0) return result;
		cuts.set(result.path, echo.cut);
		return { ...result, frontmatter: echo.frontmatter };
	});
	const line = echoLimitation(cuts);
	if (line !== null) limitations.push(line);
	return bounded;
}
