/**
 * Frontmatter: find the `---` block at the very start of a note and parse it as YAML with the
 * YAML 1.2 core schema, as Obsidian does (so `2024-07-21` stays a string, not a Date).
 */
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import type { FrontMatter } from '../../core/metadata';
import { frontmatterBoundsError } from './frontmatter-bounds';
import { parseSimpleYaml } from './yaml-fast';

export { findFrontmatter, type FrontmatterBlock } from '../../core/text/frontmatter-block';

/** The outcome of parsing frontmatter YAML. */
export interface FrontmatterParse {
	/** The parsed object, or null when the block is empty, unparsable or not a mapping. */
	data: FrontMatter | null;
	/** A human message when the YAML is unparsable or not a mapping; null otherwise. */
	error: string | null;
}

/** True for a plain (non-array) object. */
function isPlainObject(value: unknown): value is FrontMatter {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parse frontmatter YAML. `firstLine` is the 0-based file line of the YAML's first line, used
 * to report errors as 1-based file lines ("line 3: bad indentation of a mapping entry").
 */
export function parseFrontmatterYaml(yaml: string, firstLine: number): FrontmatterParse {
	const simple = parseSimpleYaml(yaml);
	if (simple !== undefined) return { data: simple, error: null };
	let value: unknown;
	try {
		value = load(yaml, { schema: CORE_SCHEMA });
	} catch (err) {
		// Some js-yaml errors carry no position (`...` then more text: "expected a single document").
		if (err instanceof YAMLException) {
			return {
				data: null,
				error: err.mark ? `line ${err.mark.line + firstLine + 1}: ${err.reason}` : err.reason,
			};
		}
		// js-yaml recurses per nesting level: thousands of `[` end in a stack overflow.
		if (err instanceof RangeError)
			return { data: null, error: `line ${firstLine + 1}: frontmatter nests too deeply to read` };
		return { data: null, error: err instanceof Error ? err.message : String(err) };
	}
	// An empty block (or one holding only comments) is not an error: Obsidian just has no
	// properties for the note.
	if (value === undefined || value === null) return { data: null, error: null };
	if (!isPlainObject(value)) {
		return {
			data: null,
			error: `line ${firstLine + 1}: frontmatter is a ${Array.isArray(value) ? 'list' : typeof value}, not a key/value mapping`,
		};
	}
	const tooBig = frontmatterBoundsError(value, yaml.length);
	if (tooBig !== null) return { data: null, error: `line ${firstLine + 1}: ${tooBig}` };
	return { data: value, error: null };
}
