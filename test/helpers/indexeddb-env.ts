/**
 * IndexedDB in Node (fake-indexeddb, in memory per test file), where the plugin keeps its saved
 * search index; each fake app has an `appId` of its own, so tests never share a saved index by accident.
 */
import 'fake-indexeddb/auto';
