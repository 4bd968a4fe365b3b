import { useSyncExternalStore } from 'react';
import { session, type SessionState } from './session';

/** The session (tokens and user record); re-renders when it changes. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}
