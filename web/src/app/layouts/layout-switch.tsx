import { ActionIcon, Tooltip } from '@mantine/core';
import { IconLayoutNavbar, IconLayoutSidebar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useMenuLayout } from './layout-preference';

/** Switches between the side menu and the top menu; the choice is remembered. */
export function LayoutSwitch() {
  const { t } = useTranslation();
  const [layout, setLayout] = useMenuLayout();
  const next = layout === 'vertical' ? 'horizontal' : 'vertical';
  const label = next === 'horizontal' ? t('layout.switch_horizontal') : t('layout.switch_vertical');
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} onClick={() => setLayout(next)} visibleFrom="md">
        {next === 'horizontal' ? <IconLayoutNavbar size={20} aria-hidden /> : <IconLayoutSidebar size={20} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}
