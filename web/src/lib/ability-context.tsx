import { AbilityProvider as CaslAbilityProvider, useAbility as useCaslAbility } from '@casl/react';
import { type ReactNode, useMemo } from 'react';
import { type AppAbility, buildAbility } from './ability';
import { useSession } from './use-session';

export { Can } from '@casl/react';

/** Provides the ability built from the stored user's `rules` (nothing allowed when logged out). */
export function AbilityProvider({ children }: { children: ReactNode }) {
  const { user, tokens } = useSession();
  const rules = tokens ? user?.rules : undefined;
  const ability = useMemo(() => buildAbility(rules), [rules]);
  return <CaslAbilityProvider value={ability}>{children}</CaslAbilityProvider>;
}

/** The current user's ability. */
export function useAbility(): AppAbility {
  return useCaslAbility<AppAbility>();
}
