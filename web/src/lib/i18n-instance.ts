import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { initialLanguage } from './language';

/**
 * The one i18next instance of the app. Keys are flat ("general.error"), so
 * neither key nor namespace separators apply. Resources are added by
 * lib/i18n.ts once the texts of a language are loaded.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: false,
  resources: {},
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { bindI18nStore: 'added' },
});
