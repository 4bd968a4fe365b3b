import { describe, expect, it } from 'vitest';
import { detectLanguage, initialLanguage, LANGUAGE_STORAGE_KEY, storeLanguage, toLanguage } from './language';

describe('detectLanguage', () => {
  it('prefers the stored choice', () => {
    expect(detectLanguage('fr', ['de-DE', 'en'])).toBe('fr');
  });
  it('falls back to the first supported browser language', () => {
    expect(detectLanguage(null, ['it-IT', 'de-CH', 'en'])).toBe('de');
    expect(detectLanguage('xx', ['FR'])).toBe('fr');
  });
  it('defaults to English', () => {
    expect(detectLanguage(null, ['it', 'es-ES'])).toBe('en');
    expect(detectLanguage(null, [])).toBe('en');
  });
  it('maps language tags', () => {
    expect(toLanguage('de_AT')).toBe('de');
    expect(toLanguage('pt-BR')).toBeNull();
    expect(toLanguage(undefined)).toBeNull();
  });
});

describe('initialLanguage', () => {
  it('reads the stored choice from localStorage', () => {
    storeLanguage('de');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de');
    expect(initialLanguage()).toBe('de');
  });
  it('uses the browser language when nothing is stored', () => {
    const spy = vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'en']);
    expect(initialLanguage()).toBe('fr');
    spy.mockRestore();
  });
});
