/**
 * Secondary indexes of the projections' folds (owner → ads, author → posts …): a set of keys per key, so a
 * deletion (a user, an ad) finds what it removes without scanning every row.
 */
export const addTo = <V>(index: Map<string, Set<V>>, key: string, value: V) => {
  const set = index.get(key);
  if (set) set.add(value);
  else index.set(key, new Set<V>().add(value));
};

export const removeFrom = <V>(index: Map<string, Set<V>>, key: string, value: V) => {
  const set = index.get(key);
  if (set?.delete(value) && set.size === 0) index.delete(key);
};
