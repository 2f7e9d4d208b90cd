/**
 * A strict command-line parser: every flag must be declared, so a typo is an error instead of
 * a silently ignored option; empty values, repeats of single-valued flags and numbers that are
 * not plain decimal integers in range are errors too (issue 15, "CLI contract").
 */
import { closest } from '../core/suggest';

/** How a flag takes its value. `multi` collects every use verbatim (a value may contain commas); `list` also splits on commas. */
export type FlagKind = 'boolean' | 'string' | 'number' | 'list' | 'multi';

/** A declared flag. */
export interface FlagSpec {
	kind: FlagKind;
	/** One line for `--help`. */
	help: string;
	/** Placeholder shown in `--help` (`PATH`, `N`). */
	value?: string;
	/** For `number` flags: the smallest and largest value accepted (default 1 and 1,000,000). */
	range?: readonly [number, number];
	/** This flag is another name for that one (its value is stored under the canonical name). */
	aliasOf?: string;
	/** A one-letter spelling, as grep has (`-C 3` for `--context 3`). */
	short?: string;
}

/** Parsed arguments: positionals in order, flags by canonical name (`list` flags collect every use, comma-split; `multi` flags every use as given). */
export interface ParsedArgs {
	positionals: string[];
	flags: Record<string, string | number | boolean | string[]>;
	/** Things worth a line on stderr that are not errors (an option spelled after `--`). */
	notes?: string[];
}

/** A usage error: the CLI prints it (on stderr, and as the failure object with `--json`) and exits with 2. */
export class UsageError extends Error {}

/** The default range of a number flag. */
const DEFAULT_RANGE: readonly [number, number] = [1, 1_000_000];

/** Parse a plain decimal integer within `range`; anything else (`0x10`, `" 3 "`, `1e308`, `+3`, `3.0`) is a usage error. */
export function parseInteger(raw: string, what: string, range: readonly [number, number] = DEFAULT_RANGE): number {
	const [min, max] = range;
	// why: Number() accepts hex, exponents, blanks and "Infinity"; only digits are a count a person means.
	if (!/^[0-9]{1,16}$/.test(raw))
		throw new UsageError(`${what} must be a whole number from ${min} to ${max} written in digits, got "${raw}"`);
	const value = Number(raw);
	if (value < min || value > max)
		throw new UsageError(`${what} must be a whole number from ${min} to ${max}, got ${raw}`);
	return value;
}

/** Why a word that starts with "-" was not taken as an option, and what to do instead. */
function dashWordError(arg: string): UsageError {
	return new UsageError(
		`"${arg}" is not an option; to search for words that start with "-", put them after --, options before it: vault-query <command> [options] -- "${arg}"`,
	);
}

/** The value of a flag, checked for emptiness (and for looking like the next option when given as its own word). */
function valueOf(argv: string[], i: number, name: string, spec: FlagSpec, inline: string | undefined): string {
	const raw = inline ?? argv[i];
	const hint = spec.value ? ` (${spec.value})` : '';
	if (raw === undefined) throw new UsageError(`--${name} needs a value${hint}`);
	if (inline === undefined && raw.startsWith('--') && raw.length > 2)
		throw new UsageError(
			`--${name} needs a value${hint}, got the option "${raw}" (write --${name}=${raw} if you mean it)`,
		);
	if (raw.trim() === '') throw new UsageError(`--${name} needs a value${hint}; an empty one is not allowed`);
	return raw;
}

/** Store one use of a flag under its canonical name, refusing a second value for a single-valued flag. */
function store(parsed: ParsedArgs, name: string, given: string, spec: FlagSpec, raw: string): void {
	const previous = parsed.flags[name];
	if (spec.kind === 'list' || spec.kind === 'multi') {
		const items =
			spec.kind === 'multi'
				? [raw]
				: raw
						.split(',')
						.map((s) => s.trim())
						.filter((s) => s !== '');
		if (items.length === 0) throw new UsageError(`--${given} needs at least one value, got "${raw}"`);
		parsed.flags[name] = [...(Array.isArray(previous) ? previous : []), ...items];
		return;
	}
	if (previous !== undefined) throw new UsageError(`--${given} was given twice; give it once`);
	parsed.flags[name] = spec.kind === 'number' ? parseInteger(raw, `--${given}`, spec.range) : raw;
}

/** A declared short option (`-C`, `-C3`) spelled long (`--context`, `--context=3`), or null. */
function longForm(arg: string, specs: Record<string, FlagSpec>): string {
	const short = /^-([A-Za-z])(.*)$/.exec(arg);
	if (short === null) return arg;
	const name = Object.keys(specs).find((key) => specs[key]!.short === short[1]);
	if (name === undefined) return arg;
	return short[2] === '' ? `--${name}` : `--${name}=${short[2]}`;
}

/**
 * Parse `argv` against the declared flags. `--name=value` and `--name value` both work; `--`
 * ends the options, so every word after it is a positional (the way to pass a query that starts
 * with "-": `search --vault V -- "-tag:draft x"`).
 */
export function parseArgs(argv: string[], specs: Record<string, FlagSpec>): ParsedArgs {
	const parsed: ParsedArgs = { positionals: [], flags: {}, notes: [] };
	for (let i = 0; i < argv.length; i++) {
		const arg = longForm(argv[i]!, specs);
		if (arg === '--') {
			const rest = argv.slice(i + 1);
			parsed.positionals.push(...rest);
			const optionLike = rest.filter(
				(word) => /^--[a-z]/.test(word) && Object.hasOwn(specs, word.slice(2).split('=')[0]!),
			);
			if (optionLike.length > 0)
				parsed.notes?.push(
					`note: ${optionLike.join(' ')} after -- ${optionLike.length === 1 ? 'is a' : 'are'} query word${optionLike.length === 1 ? '' : 's'}, not an option; put options before --`,
				);
			break;
		}
		if (!arg.startsWith('--')) {
			// "-" alone and negative numbers are values; any other dash word is a short option no flag declares.
			if (arg.startsWith('-') && arg !== '-' && !/^-[0-9]/.test(arg)) throw dashWordError(arg);
			parsed.positionals.push(arg);
			continue;
		}
		const eq = arg.indexOf('=');
		const given = arg.slice(2, eq < 0 ? undefined : eq);
		const spec = Object.hasOwn(specs, given) ? specs[given] : undefined;
		if (!spec) {
			const near = closest(given, Object.keys(specs));
			if (near.length > 0) throw new UsageError(`unknown option "--${given}"; did you mean --${near[0]}?`);
			if (/[^a-z0-9-]/i.test(given) || given === '') throw dashWordError(arg);
			throw new UsageError(
				`unknown option "--${given}"; this command takes ${Object.keys(specs)
					.map((k) => `--${k}`)
					.join(', ')}`,
			);
		}
		const name = spec.aliasOf ?? given;
		if (spec.kind === 'boolean') {
			if (eq >= 0) throw new UsageError(`--${given} takes no value`);
			parsed.flags[name] = true;
			continue;
		}
		const raw = valueOf(argv, eq >= 0 ? i : ++i, given, spec, eq >= 0 ? arg.slice(eq + 1) : undefined);
		store(parsed, name, given, spec, raw);
	}
	return parsed;
}

/** Whether `argv` asks for JSON (`--json` before any `--`), decided before parsing so even a parse failure can answer in JSON. */
export function wantsJson(argv: readonly string[]): boolean {
	for (const arg of argv) {
		if (arg === '--') return false;
		if (arg === '--json') return true;
	}
	return false;
}

/** A string flag's value, if given. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
	const value = args.flags[name];
	return typeof value === 'string' ? value : undefined;
}

/** A number flag's value, if given. */
export function numberFlag(args: ParsedArgs, name: string): number | undefined {
	const value = args.flags[name];
	return typeof value === 'number' ? value : undefined;
}

/** A list or multi flag's values (empty when not given). */
export function listFlag(args: ParsedArgs, name: string): string[] {
	const value = args.flags[name];
	return Array.isArray(value) ? value : [];
}

/** Whether a boolean flag was given. */
export function boolFlag(args: ParsedArgs, name: string): boolean {
	return args.flags[name] === true;
}

/** The named positionals (the last `optional` of them may be absent), or a usage error naming what is missing or extra. */
export function positionals<const N extends readonly string[]>(
	args: ParsedArgs,
	names: N,
): { -readonly [K in keyof N]: string };
export function positionals(args: ParsedArgs, names: readonly string[], optional: number): string[];
export function positionals(args: ParsedArgs, names: readonly string[], optional = 0): string[] {
	const required = names.length - optional;
	if (args.positionals.length < required)
		throw new UsageError(
			`missing ${names
				.slice(args.positionals.length, required)
				.map((n) => `<${n}>`)
				.join(' ')}`,
		);
	if (args.positionals.length > names.length)
		throw new UsageError(
			`unexpected argument "${args.positionals[names.length]}" (quote arguments that contain spaces)`,
		);
	const empty = names.findIndex((name, i) => args.positionals[i] !== undefined && args.positionals[i].trim() === '');
	if (empty >= 0) throw new UsageError(`<${names[empty]}> is empty`);
	return args.positionals;
}

/** The positionals joined as one query (search and pack take the rest of the line), or a usage error when there is none. */
export function queryText(args: ParsedArgs): string {
	const query = args.positionals.join(' ').trim();
	if (query === '') throw new UsageError('missing "<query>"');
	return query;
}
