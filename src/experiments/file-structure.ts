/**
 * Structure checks of a parsed input file, before any of its values is used: nesting depth,
 * keys that reach a prototype, and (JSON) keys given twice — JSON.parse keeps the last silently,
 * where the YAML parser refuses them. Iterative: a deep file cannot exhaust the stack.
 */
import { FORBIDDEN_KEYS, MAX_NESTING } from './limits.ts';

const child = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

/** The first structural problem of `value` (a parsed file), naming its key path; or null. */
export function structureProblem(value: unknown, maxDepth = MAX_NESTING): string | null {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth)
      return `${path || 'file'}: nested deeper than ${maxDepth} levels; allowed: at most ${maxDepth}`;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: child(path, i), depth: depth + 1 });
      continue;
    }
    for (const k of Object.keys(v)) {
      if (FORBIDDEN_KEYS.includes(k))
        return `${child(path, k)}: a key named ${k} is refused (it would reach an object's prototype)`;
      stack.push({ v: (v as Record<string, unknown>)[k], path: child(path, k), depth: depth + 1 });
    }
  }
  return null;
}

/** The path of the first key given twice in one object of `text` (valid JSON); or null. */
export function duplicateJsonKey(text: string): string | null {
  type Frame = { obj: boolean; path: string; keys: Set<string>; key: string; index: number };
  const stack: Frame[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.obj && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return child(top.path, key);
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      const top = stack.at(-1);
      const path = top === undefined ? '' : top.obj ? child(top.path, top.key) : child(top.path, top.index);
      stack.push({ obj: c === '{', path, keys: new Set(), key: '', index: 0 });
      expectKey = c === '{';
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1)!;
      if (top.obj) expectKey = true;
      else top.index++;
    }
  }
  return null;
}
