import { Button, Menu, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../lib/i18n';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../lib/language';
import { notifyError } from '../lib/notify';

/** Lets the user pick the interface language; the choice is remembered. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'en';

  const choose = async (lang: Language) => {
    if (lang === current) return;
    setBusy(true);
    try {
      await setLanguage(lang);
    } catch {
      notifyError(t('general.error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconLanguage size={18} aria-hidden />}
          loading={busy}
          px="xs"
        >
          {/* The name says what the button is and shows what it says (WCAG 2.5.3). */}
          <VisuallyHidden>{t('layout.language')}: </VisuallyHidden>
          {current.toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('layout.language')}</Menu.Label>
        {LANGUAGES.map((lang) => (
          <Menu.Item
            key={lang}
            lang={lang}
            onClick={() => void choose(lang)}
            rightSection={lang === current ? <IconCheck size={16} aria-hidden /> : null}
            aria-current={lang === current ? 'true' : undefined}
          >
            {LANGUAGE_NAMES[lang]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
