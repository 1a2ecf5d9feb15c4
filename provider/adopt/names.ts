// Resource names and variable names that are readable and stable: derived from the workspace (or
// module) names, and where two objects would get the same one, numbered in the order of a key that
// does not change between runs (the import id), so every run of `adopt` names everything alike.

/** One object to name: `base` is the name it would like, `key` orders the objects that want the same one. */
export interface NameRequest {
  readonly key: string;
  readonly base: string;
}

/** Each request's key → a name unique among all of them. */
export function uniqueNames(requests: readonly NameRequest[], taken: ReadonlySet<string> = new Set()): Map<string, string> {
  const used = new Set(taken);
  const out = new Map<string, string>();
  const ordered = [...requests].sort((a, b) => compare(a.base, b.base) || compare(a.key, b.key));
  // Bases first, so an object whose own name is `x-2` keeps it rather than lose it to a second `x`.
  const wanted = new Set(ordered.map((r) => r.base));
  const later: NameRequest[] = [];
  for (const request of ordered) {
    if (used.has(request.base)) later.push(request);
    else {
      used.add(request.base);
      out.set(request.key, request.base);
    }
  }
  for (const request of later) {
    let n = 2;
    while (used.has(`${request.base}-${n}`) || wanted.has(`${request.base}-${n}`)) n++;
    const name = `${request.base}-${n}`;
    used.add(name);
    out.set(request.key, name);
  }
  return out;
}

/** Code-point order, the same on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Variable names for a language: `app-prod` → `appProd`; a name that would start with a digit or be a
 * reserved word gets a prefix; two names that become the same variable are numbered (in name order).
 */
export function variableNames(names: readonly string[], reserved: ReadonlySet<string>, prefix: string): Map<string, string> {
  const requests = names.map((name) => {
    let base = camelCase(name);
    if (base === "" || /^[0-9]/.test(base)) base = `${prefix}${base.charAt(0).toUpperCase()}${base.slice(1)}`;
    if (reserved.has(base)) base = `${base}Resource`;
    return { key: name, base };
  });
  return numberedVariables(requests, reserved);
}

function numberedVariables(requests: readonly NameRequest[], reserved: ReadonlySet<string>): Map<string, string> {
  // Variables cannot hold `-`: number them with a bare suffix.
  const used = new Set(reserved);
  const out = new Map<string, string>();
  const ordered = [...requests].sort((a, b) => compare(a.base, b.base) || compare(a.key, b.key));
  for (const request of ordered) {
    let name = request.base;
    for (let n = 2; used.has(name); n++) name = `${request.base}${n}`;
    used.add(name);
    out.set(request.key, name);
  }
  return out;
}

/** `api-prod_eu.1` → `apiProdEu1`. */
export function camelCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  return words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join("");
}
