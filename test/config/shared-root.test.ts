/** Where the tests find the shared vaults: an empty `VAULT_QUERY_SHARED=` means unset, not a path. */
import { describe, expect, it } from 'vitest';
import { SHARED_BESIDE_CLONE, sharedRoot } from '../helpers/shared';

describe('the shared folder', () => {
	it('is beside the clone when VAULT_QUERY_SHARED is unset, empty or blank', () => {
		expect(sharedRoot({})).toBe(SHARED_BESIDE_CLONE);
		expect(sharedRoot({ VAULT_QUERY_SHARED: '' })).toBe(SHARED_BESIDE_CLONE);
		expect(sharedRoot({ VAULT_QUERY_SHARED: '  ' })).toBe(SHARED_BESIDE_CLONE);
	});

	it('is where VAULT_QUERY_SHARED points when it names a path', () => {
		expect(sharedRoot({ VAULT_QUERY_SHARED: '/data/shared' })).toBe('/data/shared');
	});
});
