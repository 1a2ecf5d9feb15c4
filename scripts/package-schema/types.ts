// TypeScript types → the package schema's types:
// - `T | null` and optional properties are T, not required;
// - a union of string literals is a string (the values are listed in the description), of boolean
//   literals a boolean; any other union is `pulumi.json#/Any`;
// - `T[]` is an array; an object with only a string index signature (`Record<string, V>`) is a map;
// - any other object is a named type in `types` (two different shapes never share a name).
import * as ts from "typescript";
import type { Docs } from "./docs";
import type { ObjectTypeSpec, PropertySpec, TypeSpec } from "./spec";

export const TYPE_TOKEN_PREFIX = "wsbridge:index:";

/**
 * Suffixes the SDK generators append to type names (Go: Output, Input, Args, Ptr, Array, Map; C#: Args;
 * Python: Args, Dict). A type named with one of them would collide with a generated name.
 */
export const RESERVED_TYPE_NAME_SUFFIXES = ["Output", "Input", "Args", "Ptr", "Array", "Map", "Dict"] as const;

/** A property's schema and whether it is required (neither optional nor nullable). */
export interface MappedProperty {
  spec: PropertySpec;
  required: boolean;
}

/** What one property's type maps to. */
interface Mapped {
  spec: TypeSpec;
  /** The type admits null or undefined. */
  nullable: boolean;
  /** The values of a string-literal union, for the description. */
  values?: string[];
}

export class TypeMapper {
  /** The named object types so far: schema name → its spec and where it came from (for error messages). */
  readonly types = new Map<string, { spec: ObjectTypeSpec; origin: string }>();
  private readonly inProgress = new Set<string>();

  /**
   * @param names Overrides of the default type names, keyed by the TypeScript type's name or, for an
   * anonymous type, by "Owner.property". Default: the TypeScript name, else Owner + Property.
   */
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly docs: Docs,
    private readonly names: Readonly<Record<string, string>>,
  ) {}

  /** The properties of an object type (an interface or a type literal) and the required ones. */
  objectProperties(type: ts.Type, owner: string): { properties: Record<string, PropertySpec>; required: string[] } {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const symbol of this.checker.getPropertiesOfType(type)) {
      const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
      if (declaration === undefined) throw new Error(`${owner}.${symbol.name} has no declaration`);
      const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
      const mapped = this.property(this.checker.getTypeOfSymbolAtLocation(symbol, declaration), declaration, owner, symbol.name);
      properties[symbol.name] = mapped.spec;
      if (mapped.required && !optional) required.push(symbol.name);
    }
    return { properties, required: required.sort() };
  }

  /** One property: its type (from `type`), description and schema flags (from the TSDoc of `declaration`, if any). */
  property(type: ts.Type, declaration: ts.Node | undefined, owner: string, name: string): MappedProperty {
    const integer = this.docs.tag(declaration, "TJS-type") === "integer";
    const mapped = this.map(type, owner, name, integer);
    const description = [this.docs.of(declaration), mapped.values && `One of: ${mapped.values.map((v) => `\`${v}\``).join(", ")}.`]
      .filter((d): d is string => typeof d === "string" && d !== "")
      .join("\n\n");
    const spec: PropertySpec = { ...mapped.spec };
    if (description !== "") spec.description = description;
    if (this.docs.tag(declaration, "secret") !== undefined) spec.secret = true;
    return { spec, required: !mapped.nullable };
  }

  private map(type: ts.Type, owner: string, property: string, integer: boolean): Mapped {
    const where = `${owner}.${property}`;
    if (type.isUnion()) {
      const present = type.types.filter((t) => (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) === 0);
      const nullable = present.length < type.types.length;
      if (present.length === 0) throw new Error(`${where}: only null or undefined`);
      if (present.every((t) => (t.flags & ts.TypeFlags.BooleanLiteral) !== 0)) return { spec: { type: "boolean" }, nullable };
      if (present.every((t) => t.isStringLiteral())) {
        return { spec: { type: "string" }, nullable, values: present.map((t) => (t as ts.StringLiteralType).value) };
      }
      if (present.length === 1 && present[0] !== undefined) return { ...this.map(present[0], owner, property, integer), nullable };
      return { spec: { $ref: "pulumi.json#/Any" }, nullable };
    }
    if (type.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) {
      return { spec: { type: "string" }, nullable: false, ...(type.isStringLiteral() && { values: [type.value] }) };
    }
    if (type.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return { spec: { type: integer ? "integer" : "number" }, nullable: false };
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { spec: { type: "boolean" }, nullable: false };
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      if (element === undefined) throw new Error(`${where}: an array without an element type`);
      const items = this.map(element, owner, property, integer);
      if (items.nullable) throw new Error(`${where}: the schema cannot state an array of nullable elements`);
      return { spec: { type: "array", items: items.spec }, nullable: false };
    }
    if (type.flags & ts.TypeFlags.Object) {
      const index = this.checker.getIndexInfoOfType(type, ts.IndexKind.String);
      const members = this.checker.getPropertiesOfType(type);
      if (index !== undefined && members.length === 0) {
        const values = this.map(index.type, owner, property, integer);
        if (values.nullable) throw new Error(`${where}: the schema cannot state a map of nullable values`);
        return { spec: { type: "object", additionalProperties: values.spec }, nullable: false };
      }
      if (index === undefined && members.length > 0) return { spec: { $ref: `#/types/${TYPE_TOKEN_PREFIX}${this.named(type, owner, property)}` }, nullable: false };
    }
    throw new Error(`${where}: no schema type for \`${this.checker.typeToString(type)}\``);
  }

  /** Registers an object type under its name (see the constructor) and returns the name. */
  private named(type: ts.Type, owner: string, property: string): string {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const sourceName = symbol !== undefined && !symbol.name.startsWith("__") ? symbol.name : undefined;
    const position = `${owner}.${property}`;
    const name = sourceName !== undefined ? this.names[sourceName] ?? sourceName : this.names[position] ?? owner + pascal(property);
    const origin = sourceName !== undefined ? `the type ${sourceName} (at ${position})` : `the type of ${position}`;
    const reserved = RESERVED_TYPE_NAME_SUFFIXES.find((suffix) => name.endsWith(suffix));
    if (reserved !== undefined) {
      throw new Error(`${origin} would be named ${name}, which ends with "${reserved}", a suffix the SDK generators add: name it in TYPE_NAMES`);
    }
    if (this.inProgress.has(name)) throw new Error(`${origin} refers to itself; the schema generator does not support recursive types`);
    this.inProgress.add(name);
    const { properties, required } = this.objectProperties(type, name);
    this.inProgress.delete(name);
    const spec: ObjectTypeSpec = { type: "object", properties };
    const description = this.docs.of(symbol?.declarations?.[0]);
    if (description !== undefined) spec.description = description;
    if (required.length > 0) spec.required = required;
    const existing = this.types.get(name);
    if (existing !== undefined && JSON.stringify(existing.spec) !== JSON.stringify(spec)) {
      throw new Error(`${origin} and ${existing.origin} differ but would both be named ${name}: name one of them in TYPE_NAMES`);
    }
    if (existing === undefined) this.types.set(name, { spec, origin });
    return name;
  }
}

export function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
