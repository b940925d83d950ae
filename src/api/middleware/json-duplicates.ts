/**
 * The first object key that occurs twice in the same object of a JSON text, or null. JSON.parse
 * keeps the last of duplicates silently; a payment request must not mean two things, so callers
 * refuse such bodies. Expects text JSON.parse has already accepted (so it is well-formed).
 */
export function duplicateJsonKey(text: string): string | null {
  const scopes: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') scopes.push(new Set());
    else if (c === '[') scopes.push(null);
    else if (c === '}' || c === ']') scopes.pop();
    else if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      let next = i + 1;
      while (next < text.length && /\s/.test(text[next])) next++;
      const scope = scopes.at(-1);
      if (text[next] === ':' && scope) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (scope.has(key)) return key;
        scope.add(key);
      }
    }
  }
  return null;
}
