import { getMetadataStorage } from 'class-validator';

type MetadataLookup = ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas'];
const cachedLookups = new WeakSet<object>();

/**
 * class-validator finds a class's rules by testing every decorated class of the application (for inherited
 * rules) on each object it validates: a few per cent of a request's CPU. A class's rules are complete once it
 * is defined (its decorators ran) and only its ancestors, defined before it, add to them, so the answer is
 * kept per class and options.
 */
export function cacheRuleLookups(): void {
  const storage = getMetadataStorage();
  if (cachedLookups.has(storage)) return;
  cachedLookups.add(storage);
  const lookup: MetadataLookup = storage.getTargetValidationMetadatas.bind(storage);
  const answers = new Map<unknown, Map<string, ReturnType<MetadataLookup>>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}|${always}|${strictGroups}|${groups?.join(',') ?? ''}`;
    let byOptions = answers.get(target);
    if (!byOptions) answers.set(target, (byOptions = new Map()));
    let answer = byOptions.get(key);
    if (!answer) byOptions.set(key, (answer = lookup(target, schema, always, strictGroups, groups)));
    return answer;
  };
}
