import { ClassTransformOptions, TransformationType, TypeMetadata } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-transformer's own type for a class
type Class = Function;
type Made = Record<string, unknown>;

/** How a key of a class is built, as class-transformer builds it: copied, or made an instance of its `@Type`. */
type KeyPlan = { typed: false } | { typed: true; metadata: TypeMetadata };

/** A class whose instances are built here: its keys' plans (null: a key left to class-transformer), and an instance to probe. */
interface ClassPlan {
  keys: Map<string, KeyPlan | null>;
  probe: Made;
}

/** A value class-transformer converts (or whose instances it builds in its own way): left to it. */
const BUILT_IN = new Set<unknown>([Object, Array, String, Number, Boolean, Date, Map, Set, Promise, Buffer, Symbol, BigInt, Function]);

/** At most this many keys of one class get a plan (a body's keys are the sender's to choose). */
const MAX_KEYS = 256;

/** Where the builder leaves a value to class-transformer. */
const UNDECIDED = Symbol('undecided');

/**
 * class-transformer's `plainToInstance` for request bodies, built without its generic walk: the same instance, built the
 * same way, for the classes and values it can tell (a twentieth of a transfer's CPU went to that walk). It decides only
 * plain JSON values (see `plainJson`) of classes without `@Expose`, `@Exclude` or `@Transform`, whose keys are copied
 * (primitives, arrays of them) or built as their `@Type`'s class (no discriminator, no Map or Set); for anything else —
 * and for options other than the validation pipe's — it answers undefined, and the caller asks class-transformer.
 * `test/plain-to-instance.spec.ts` holds its answers to class-transformer's.
 */
export class PlainToInstance {
  private readonly plans = new WeakMap<Class, ClassPlan | null>();
  private readonly decides: boolean;

  constructor(options: ClassTransformOptions | undefined) {
    const { enableImplicitConversion, ...others } = options ?? {};
    this.decides = !enableImplicitConversion && Object.keys(others).length === 0;
  }

  /** The instance class-transformer would build of `type` from `plain`, or undefined when this cannot tell. */
  build(type: Class, plain: Made): object | undefined {
    if (!this.decides) return undefined;
    const made = this.instance(type, plain, 0);
    return made === UNDECIDED ? undefined : made;
  }

  private instance(type: Class, plain: Made, depth: number): Made | typeof UNDECIDED {
    if (depth > 32) return UNDECIDED;
    const plan = this.planOf(type);
    if (!plan) return UNDECIDED;
    const made = new (type as new () => Made)();
    for (const key of Object.keys(plain)) {
      if (key === '__proto__' || key === 'constructor') continue;
      const keyPlan = this.keyPlan(type, plan, key);
      if (!keyPlan) return UNDECIDED;
      const value = plain[key];
      let built: unknown;
      if (!keyPlan.typed) built = copied(value);
      else {
        const { metadata } = keyPlan;
        const target = metadata.typeFunction
          ? metadata.typeFunction({ newObject: made, object: plain, property: key })
          : (metadata.reflectedType as unknown);
        built = this.typed(target as Class | undefined, value, metadata.reflectedType, depth);
      }
      if (built === UNDECIDED) return UNDECIDED;
      made[key] = built;
    }
    return made;
  }

  /** A value of a key with a `@Type`: an instance of its class, an array of them, or a primitive as it is. */
  private typed(target: Class | undefined, value: unknown, reflected: unknown, depth: number): unknown {
    if (typeof target !== 'function' || BUILT_IN.has(target)) return UNDECIDED;
    if (Array.isArray(value)) {
      // class-transformer makes the array of the property's declared type (an Array, or none declared).
      if (reflected !== undefined && reflected !== Array) return UNDECIDED;
      const items: unknown[] = [];
      for (const item of value) {
        if (Array.isArray(item)) return UNDECIDED;
        const built = item !== null && typeof item === 'object' ? this.instance(target, item as Made, depth + 1) : item;
        if (built === UNDECIDED) return UNDECIDED;
        items.push(built);
      }
      return items;
    }
    return value !== null && typeof value === 'object' ? this.instance(target, value as Made, depth + 1) : value;
  }

  /** A class's plan: none (null) when it exposes, excludes or transforms anything. */
  private planOf(type: Class): ClassPlan | null {
    let plan = this.plans.get(type);
    if (plan === undefined) {
      const storage = defaultMetadataStorage;
      plan =
        BUILT_IN.has(type) || storage.getExposedMetadatas(type).length || storage.getExcludedMetadatas(type).length
          ? null
          : { keys: new Map(), probe: new (type as new () => Made)() };
      this.plans.set(type, plan);
    }
    return plan;
  }

  /** How a key is built (see KeyPlan); null when class-transformer would skip it, transform it or convert it its way. */
  private keyPlan(type: Class, plan: ClassPlan, key: string): KeyPlan | null {
    let keyPlan = plan.keys.get(key);
    if (keyPlan !== undefined) return keyPlan;
    if (plan.keys.size >= MAX_KEYS) return null;
    const storage = defaultMetadataStorage;
    const metadata = storage.findTypeMetadata(type, key);
    if (
      // class-transformer skips a key the class has an accessor or a method of.
      Object.getOwnPropertyDescriptor((type as { prototype: object }).prototype, key) ||
      plan.probe[key] instanceof Function ||
      storage.findTransformMetadatas(type, key, TransformationType.PLAIN_TO_CLASS).length
    )
      keyPlan = null;
    else if (!metadata) keyPlan = { typed: false };
    else if (metadata.options?.discriminator || metadata.reflectedType === Map || metadata.reflectedType === Set) keyPlan = null;
    else keyPlan = { typed: true, metadata };
    plan.keys.set(key, keyPlan);
    return keyPlan;
  }
}

/** A value of a key without a `@Type`: a primitive as it is, an array of primitives copied; anything else undecided. */
function copied(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (!Array.isArray(value)) return UNDECIDED;
  for (const item of value) if (item !== null && typeof item === 'object') return UNDECIDED;
  return value.slice();
}
