/**
 * A strict command-line parser: every flag must be declared, so a typo is an error instead of
 * a silently ignored option (the brief: "unknown flags are errors, never ignored").
 */

/** How a flag takes its value. `multi` collects every use verbatim (a value may contain commas); `list` also splits on commas. */
export type FlagKind = 'boolean' | 'string' | 'number' | 'list' | 'multi';

/** A declared flag. */
export interface FlagSpec {
	kind: FlagKind;
	/** One line for `--help`. */
	help: string;
	/** Placeholder shown in `--help` (`PATH`, `N`). */
	value?: string;
}

/** Parsed arguments: positionals in order, flags by name (`list` flags collect every use, comma-split; `multi` flags every use as given). */
export interface ParsedArgs {
	positionals: string[];
	flags: Record<string, string | number | boolean | string[]>;
}

/** A usage error: the CLI prints it on stderr and exits with 2. */
export class UsageError extends Error {}

/** Parse `argv` against the declared flags. `--name=value` and `--name value` both work; `--` ends flags. */
export function parseArgs(argv: string[], specs: Record<string, FlagSpec>): ParsedArgs {
	const parsed: ParsedArgs = { positionals: [], flags: {} };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--') {
			parsed.positionals.push(...argv.slice(i + 1));
			break;
		}
		if (!arg.startsWith('--') || arg === '-') {
			if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) throw new UsageError(`unknown option "${arg}" (options are spelled --name; see --help)`);
			parsed.positionals.push(arg);
			continue;
		}
		const eq = arg.indexOf('=');
		const name = arg.slice(2, eq < 0 ? undefined : eq);
		const spec = specs[name];
		if (!spec) {
			const known = Object.keys(specs).map((k) => `--${k}`).join(', ');
			throw new UsageError(`unknown option "--${name}"; this command takes ${known}`);
		}
		if (spec.kind === 'boolean') {
			if (eq >= 0) throw new UsageError(`--${name} takes no value`);
			parsed.flags[name] = true;
			continue;
		}
		const raw = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
		if (raw === undefined) throw new UsageError(`--${name} needs a value${spec.value ? ` (${spec.value})` : ''}`);
		if (spec.kind === 'number') {
			const value = Number(raw);
			if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive whole number, got "${raw}"`);
			parsed.flags[name] = value;
		} else if (spec.kind === 'list' || spec.kind === 'multi') {
			const previous = parsed.flags[name];
			const items = spec.kind === 'multi' ? [raw] : raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
			parsed.flags[name] = [...(Array.isArray(previous) ? previous : []), ...items];
		} else {
			parsed.flags[name] = raw;
		}
	}
	return parsed;
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
export function positionals(args: ParsedArgs, names: string[], optional = 0): string[] {
	const required = names.length - optional;
	if (args.positionals.length < required) throw new UsageError(`missing ${names.slice(args.positionals.length, required).map((n) => `<${n}>`).join(' ')}`);
	if (args.positionals.length > names.length) throw new UsageError(`unexpected argument "${args.positionals[names.length]}" (quote arguments that contain spaces)`);
	return args.positionals;
}
