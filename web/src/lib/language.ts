import { readString, writeString } from './storage';

/** Languages of the interface. */
export const LANGUAGES = ['en', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'portfolio.language';

/** Names of the languages in their own language, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps a tag such as "de-CH" or "FR" to a supported language, if any. */
export function toLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : null;
}

/**
 * Chooses the interface language: the stored choice, else the first supported
 * browser language, else English.
 */
export function detectLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  const fromStore = toLanguage(stored);
  if (fromStore) return fromStore;
  for (const tag of browserLanguages) {
    const lang = toLanguage(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

export function getStoredLanguage(): string | null {
  return readString(LANGUAGE_STORAGE_KEY);
}

export function storeLanguage(lang: Language): void {
  writeString(LANGUAGE_STORAGE_KEY, lang);
}

/** The language to start with, from localStorage and the browser settings. */
export function initialLanguage(): Language {
  const browser =
    typeof navigator === 'undefined'
      ? []
      : navigator.languages && navigator.languages.length > 0
        ? navigator.languages
        : [navigator.language];
  return detectLanguage(getStoredLanguage(), browser);
}
