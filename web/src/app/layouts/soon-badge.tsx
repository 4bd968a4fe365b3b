import { Badge, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The mark of a menu entry whose screen is still to come: a small "Soon"
 * badge (its tooltip says more), and for screen readers "(coming soon)" as
 * part of the link's name.
 */
export function SoonBadge() {
  const { t } = useTranslation();
  return (
    <>
      <Badge
        component="span"
        size="xs"
        radius="sm"
        variant="filled"
        color="yellow"
        // Black on yellow reads in both skins (over 10:1).
        c="black"
        title={t('menu.soon_hint')}
        aria-hidden
        style={{ flexShrink: 0 }}
        data-coming-soon
      >
        {t('menu.soon')}
      </Badge>
      <VisuallyHidden component="span">({t('menu.soon_name')})</VisuallyHidden>
    </>
  );
}
