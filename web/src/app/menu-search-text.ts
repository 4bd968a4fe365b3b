/** Text folded for searching: lower case, without accents (Übersicht → ubersicht). */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Whether every word of `search` occurs in `text` (folded); an empty search matches everything. */
export function matchesSearch(text: string, search: string): boolean {
  const haystack = foldText(text);
  return foldText(search)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
