import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { linksFieldNames } from '../../src/core/note-info';
import { flattenValue, MAX_YAML_NODES, propertyValue, yamlScalars } from '../../src/core/yaml-values';

describe('the one YAML value flattener', () => {
	it('flattens nested lists in order, numbers and booleans as text, objects skipped', () => {
		expect(flattenValue(['a', ['b', [1, true]], { c: 'x' }, null])).toEqual(['a', 'b', '1', 'true']);
		expect(flattenValue('one')).toEqual(['one']);
		expect(linksFieldNames({ links: [['[[x]]'], 'y|shown', '', 'x'] }, 'links')).toEqual(['x', 'y']);
	});

	it('stays bounded on an alias bomb that would expand to billions of values as a tree', () => {
		const bomb = load(
			'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\ni: [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]\n',
		) as Record<string, unknown>;
		// Bounded by counting the values walked (a walk of 10^9 would run into the test's timeout).
		const out = yamlScalars(bomb.i);
		expect(out.length).toBeLessThanOrEqual(MAX_YAML_NODES);
		const cyclic: unknown[] = ['z'];
		cyclic.push(cyclic);
		expect(yamlScalars(cyclic)).toEqual(['z']);
	});

	it('looks a property up by exact key first, then case-insensitively', () => {
		expect(propertyValue({ Aliases: ['A'] }, 'aliases')).toEqual(['A']);
		expect(propertyValue({ status: 'x', Status: 'y' }, 'Status')).toBe('y');
		expect(propertyValue(undefined, 'x')).toBeUndefined();
	});
});
