import { useLocalStorage } from '@mantine/hooks';

/** The two menu layouts a user can choose between. */
export type MenuLayout = 'vertical' | 'horizontal';

export const LAYOUT_STORAGE_KEY = 'portfolio.layout';

/** The remembered menu layout (vertical side menu by default). */
export function useMenuLayout() {
  return useLocalStorage<MenuLayout>({
    key: LAYOUT_STORAGE_KEY,
    defaultValue: 'vertical',
    getInitialValueInEffect: false,
    deserialize: (value) => (value === 'horizontal' ? 'horizontal' : 'vertical'),
    serialize: (value) => value,
  });
}
