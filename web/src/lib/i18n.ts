import dayjs from 'dayjs';
import 'dayjs/locale/de';
import 'dayjs/locale/fr';
import { apiRequest } from './api-client';
import { i18n } from './i18n-instance';
import { type Language, storeLanguage } from './language';
import { readJson, writeJson } from './storage';

export { i18n };

/** Cached UI texts are reused for less than this long. */
export const TEXT_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const TEXT_CACHE_PREFIX = 'portfolio.texts.';

export type Texts = Record<string, string>;

interface CachedTexts {
  lang: Language;
  savedAt: number;
  /** The app build that cached them: a new build may use new keys. */
  build: string;
  texts: Texts;
}

const BUILD_ID: string = typeof import.meta.env.VITE_BUILD_ID === 'string' ? import.meta.env.VITE_BUILD_ID : 'dev';

interface TranslationRow {
  translation_id: string;
  translation_text: string;
}

interface SpecificApiAnswer<Row> {
  data: { data: Row[]; total: number };
}

/** Texts bundled at build time, loaded only when the server cannot deliver them. */
const bundledTexts: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import('../../../internal/i18n/locales/en.json'),
  de: () => import('../../../internal/i18n/locales/de.json'),
  fr: () => import('../../../internal/i18n/locales/fr.json'),
};

/** Cached texts of `lang` when they are younger than 24 hours and of this build. */
export function readCachedTexts(lang: Language, now = Date.now()): Texts | null {
  const cached = readJson<CachedTexts>(TEXT_CACHE_PREFIX + lang);
  if (!cached || cached.lang !== lang || cached.build !== BUILD_ID || typeof cached.savedAt !== 'number') return null;
  const age = now - cached.savedAt;
  if (age < 0 || age >= TEXT_CACHE_MAX_AGE_MS) return null;
  return cached.texts && typeof cached.texts === 'object' ? cached.texts : null;
}

export function writeCachedTexts(lang: Language, texts: Texts, now = Date.now()): void {
  writeJson(TEXT_CACHE_PREFIX + lang, { lang, savedAt: now, build: BUILD_ID, texts } satisfies CachedTexts);
}

/** Fetches the UI texts of `lang` from POST /specific-api. */
export async function fetchTexts(lang: Language): Promise<Texts> {
  const answer = await apiRequest<SpecificApiAnswer<TranslationRow>>('/specific-api', {
    method: 'POST',
    auth: false,
    silent: true,
    json: { entity: '1__translation_i18n', action: 'read-rich', per_page: 1000000, lang },
  });
  const rows = answer?.data?.data;
  if (!Array.isArray(rows) || rows.length === 0) throw new Error('No texts in the answer');
  const texts: Texts = {};
  for (const row of rows) {
    if (row && typeof row.translation_id === 'string') texts[row.translation_id] = row.translation_text ?? '';
  }
  return texts;
}

/**
 * The UI texts of `lang`: from the 24-hour cache, else from the server (then
 * cached), else the copy bundled at build time.
 */
export async function loadTexts(lang: Language, now = Date.now()): Promise<Texts> {
  const cached = readCachedTexts(lang, now);
  if (cached) return cached;
  try {
    const texts = await fetchTexts(lang);
    writeCachedTexts(lang, texts, now);
    return texts;
  } catch (error) {
    console.warn(`UI texts for "${lang}" could not be loaded from the server; using the bundled copy`, error);
    const bundled = await bundledTexts[lang]();
    return bundled.default;
  }
}

/** Loads the texts of `lang` if needed and makes it the interface language. */
export async function applyLanguage(lang: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'translation')) {
    const texts = await loadTexts(lang);
    i18n.addResourceBundle(lang, 'translation', texts, true, true);
  }
  await i18n.changeLanguage(lang);
  dayjs.locale(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

/** Switches the interface language and remembers the choice. */
export async function setLanguage(lang: Language): Promise<void> {
  storeLanguage(lang);
  await applyLanguage(lang);
}
