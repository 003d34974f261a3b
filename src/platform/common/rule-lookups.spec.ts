import { getMetadataStorage, IsInt, IsString, Min, validate } from 'class-validator';
import { cacheRuleLookups } from './rule-lookups';

class Base {
  @IsString()
  name!: string;
}

class Derived extends Base {
  @IsInt()
  @Min(1)
  count!: number;
}

function instance<T extends object>(type: new () => T, values: Record<string, unknown>): T {
  return Object.assign(new type(), values);
}

describe('cacheRuleLookups', () => {
  it("keeps a class's own and inherited rules, and gives the same answers on every call", async () => {
    cacheRuleLookups();
    cacheRuleLookups(); // twice: wraps once
    for (let round = 0; round < 3; round++) {
      const errors = await validate(instance(Derived, { name: 7, count: 0 }));
      expect(errors.map((e) => [e.property, Object.keys(e.constraints ?? {})]).sort()).toEqual([
        ['count', ['min']],
        ['name', ['isString']],
      ]);
      expect(await validate(instance(Derived, { name: 'ok', count: 2 }))).toEqual([]);
      // The parent keeps only its own rules.
      expect(await validate(instance(Base, { name: 'ok', count: 'anything' }))).toEqual([]);
    }
  });

  it('answers a class the same rules without looking them up again', () => {
    cacheRuleLookups();
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Derived, '', false, false);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['count', 'count', 'name']);
    expect(storage.getTargetValidationMetadatas(Derived, '', false, false)).toBe(first);
    expect(storage.getTargetValidationMetadatas(Derived, '', false, false, ['admin'])).not.toBe(first);
  });
});
