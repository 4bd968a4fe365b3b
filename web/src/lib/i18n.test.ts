import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import en from '../../../internal/i18n/locales/en.json';
import { loadTexts, readCachedTexts, TEXT_CACHE_MAX_AGE_MS, TEXT_CACHE_PREFIX, writeCachedTexts } from './i18n';

afterEach(() => {
  vi.unstubAllGlobals();
});

const rows = [
  { translation_id: 'general.error', translation_text: 'Fehler' },
  { translation_id: 'layout.logout', translation_text: 'Abmelden' },
];

describe('loadTexts', () => {
  it('asks POST /specific-api for the language and caches the answer', async () => {
    const { calls } = mockFetch(() => json(200, { data: { data: rows, total: 2 } }));
    const texts = await loadTexts('de', 1_000);
    expect(texts).toEqual({ 'general.error': 'Fehler', 'layout.logout': 'Abmelden' });
    expect(calls[0].url).toBe('/specific-api');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].body).toEqual({ entity: '1__translation_i18n', action: 'read-rich', per_page: 1000000, lang: 'de' });
    expect(calls[0].headers.get('Authorization')).toBeNull();
    expect(readCachedTexts('de', 2_000)).toEqual(texts);
  });

  it('reuses the cache for less than 24 hours, per language', async () => {
    writeCachedTexts('fr', { 'general.error': 'Erreur' }, 0);
    const { calls } = mockFetch(() => json(200, { data: { data: rows, total: 2 } }));
    expect(await loadTexts('fr', TEXT_CACHE_MAX_AGE_MS - 1)).toEqual({ 'general.error': 'Erreur' });
    expect(calls).toHaveLength(0);
    // Another language does not use it.
    await loadTexts('de', TEXT_CACHE_MAX_AGE_MS - 1);
    expect(calls).toHaveLength(1);
  });

  it('fetches again once the cache is 24 hours old', async () => {
    writeCachedTexts('de', { old: 'x' }, 0);
    const { calls } = mockFetch(() => json(200, { data: { data: rows, total: 2 } }));
    const texts = await loadTexts('de', TEXT_CACHE_MAX_AGE_MS);
    expect(calls).toHaveLength(1);
    expect(texts['general.error']).toBe('Fehler');
    expect(JSON.parse(localStorage.getItem(`${TEXT_CACHE_PREFIX}de`) ?? '{}').savedAt).toBe(TEXT_CACHE_MAX_AGE_MS);
  });

  it('falls back to the bundled texts when the server fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockFetch(() => json(503, { detail: 'down' }));
    const texts = await loadTexts('en', 5);
    expect(texts['general.error']).toBe(en['general.error']);
    expect(readCachedTexts('en', 6)).toBeNull();
    warn.mockRestore();
  });
});

describe('the text cache', () => {
  it('ignores texts cached by another build of the app', () => {
    localStorage.setItem(
      `${TEXT_CACHE_PREFIX}en`,
      JSON.stringify({ lang: 'en', savedAt: 0, build: 'an-older-build', texts: { a: 'b' } }),
    );
    expect(readCachedTexts('en', 1)).toBeNull();
    writeCachedTexts('en', { a: 'b' }, 0);
    expect(readCachedTexts('en', 1)).toEqual({ a: 'b' });
  });
});
