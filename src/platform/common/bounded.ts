/**
 * Keeps `value` under `key` in an in-memory cache of at most `max` entries: a new key first drops the oldest one (a Map
 * iterates in insertion order). The one eviction rule of the service's caches (principals, pricing, rates, parties).
 */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
