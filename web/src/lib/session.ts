import { readJson, readString, writeJson, writeString } from './storage';

/** Access token age, in seconds, from which it is refreshed on navigation. */
export const TOKEN_REFRESH_AGE_SECONDS = 1200;
/** Interval of the background helper that refreshes an old access token. */
export const SESSION_CHECK_INTERVAL_MS = 600_000;

/** Keys of the session data kept in localStorage. */
export const SESSION_KEYS = {
  accessToken: 'portfolio.access_token',
  refreshToken: 'portfolio.refresh_token',
  issuedAt: 'portfolio.token_issued_at',
  expiresIn: 'portfolio.token_expires_in',
  user: 'portfolio.user',
  browserHash: 'portfolio.browser_hash',
} as const;

/** A CASL rule as delivered by GET /user/. */
export interface RawAbilityRule {
  action: string | string[];
  subject: string | string[];
  inverted?: boolean;
  conditions?: Record<string, unknown>;
  fields?: string | string[];
  reason?: string;
}

export interface UserRoleTablegroup {
  tablegroup_id: number;
  tablegroup_name: string;
  crud_c: number | boolean;
  crud_r: number | boolean;
  crud_u: number | boolean;
  crud_d: number | boolean;
}

export interface UserRole {
  role_id: number;
  role_name: string;
  role_code: string;
  role_menu: string | null;
  tablegroups: UserRoleTablegroup[];
}

export interface UserTeam {
  team_id: number;
  team_name: string;
  team_type: string;
}

export interface MenuConfigEntry {
  access_name: string;
  menus: { name: string; value: string[] }[];
}

/** The current user record answered by GET /user/ and kept in localStorage. */
export interface CurrentUser {
  user_id: number;
  user_email: string;
  user_firstname: string;
  user_lastname: string;
  user_abbreviation?: string | null;
  user_language?: string | null;
  user_fix_phonenumber?: string | null;
  user_fax_phonenumber?: string | null;
  user_mobile?: string | null;
  user_is_director?: number | boolean | null;
  usertype?: { usertype_id: number; usertype_name: string; usertype_external: number | boolean } | null;
  roles?: UserRole[];
  partnercompany?: { partnercompany_id: number; partnercompany_name: string }[];
  company?: { company_id: number; company_name: string; customergroup_id: number } | null;
  customergroup?: { customergroup_id: number; customergroup_name: string } | null;
  partnergroup?: { partnergroup_id: number; partnergroup_name: string } | null;
  team_id?: number[];
  teams?: UserTeam[];
  configs?: { config_key: string; config_val: MenuConfigEntry[] }[];
  tablegroups?: { tablegroup_id: number; table_name: string[] }[];
  users_tablegroups?: { tablegroup_id: number; c: number; r: number; u: number; d: number }[];
  rules?: RawAbilityRule[];
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds when this access token was received. */
  issuedAt: number;
  /** Lifetime announced by the server, in seconds, if any. */
  expiresIn: number | null;
}

export interface SessionState {
  tokens: SessionTokens | null;
  user: CurrentUser | null;
}

/** Why the session ended; the login page explains it to the user. */
export type LogoutReason = 'user' | 'expired';

type Listener = () => void;

function readTokens(): SessionTokens | null {
  const accessToken = readString(SESSION_KEYS.accessToken);
  const refreshToken = readString(SESSION_KEYS.refreshToken);
  if (!accessToken || !refreshToken) return null;
  const issuedAt = Number(readString(SESSION_KEYS.issuedAt));
  const expiresIn = Number(readString(SESSION_KEYS.expiresIn));
  return {
    accessToken,
    refreshToken,
    // An unknown age counts as old, so the first navigation refreshes it.
    issuedAt: Number.isFinite(issuedAt) && issuedAt > 0 ? issuedAt : 0,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null,
  };
}

function readState(): SessionState {
  return { tokens: readTokens(), user: readJson<CurrentUser>(SESSION_KEYS.user) };
}

let state: SessionState = readState();
let lastLogoutReason: LogoutReason | null = null;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

function setState(next: SessionState): void {
  state = next;
  emit();
}

if (typeof window !== 'undefined') {
  // Keep tabs in step: a log-out or refresh in one tab applies to all.
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(SESSION_KEYS).includes(event.key as never)) {
      setState(readState());
    }
  });
}

/** The session store: tokens and the user record, persisted in localStorage. */
export const session = {
  getState(): SessionState {
    return state;
  },

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  isLoggedIn(): boolean {
    return state.tokens !== null;
  },

  getAccessToken(): string | null {
    return state.tokens?.accessToken ?? null;
  },

  getRefreshToken(): string | null {
    return state.tokens?.refreshToken ?? null;
  },

  /** Stores a fresh token pair; its age starts now (or at `now`). */
  setTokens(accessToken: string, refreshToken: string, expiresIn?: number | null, now = Date.now()): void {
    writeString(SESSION_KEYS.accessToken, accessToken);
    writeString(SESSION_KEYS.refreshToken, refreshToken);
    writeString(SESSION_KEYS.issuedAt, String(now));
    writeString(SESSION_KEYS.expiresIn, expiresIn ? String(expiresIn) : null);
    lastLogoutReason = null;
    setState({
      ...state,
      tokens: { accessToken, refreshToken, issuedAt: now, expiresIn: expiresIn ?? null },
    });
  },

  setUser(user: CurrentUser | null): void {
    writeJson(SESSION_KEYS.user, user);
    setState({ ...state, user });
  },

  /** Clears the stored tokens and user data (not the browser id or preferences). */
  clear(reason: LogoutReason = 'user'): void {
    writeString(SESSION_KEYS.accessToken, null);
    writeString(SESSION_KEYS.refreshToken, null);
    writeString(SESSION_KEYS.issuedAt, null);
    writeString(SESSION_KEYS.expiresIn, null);
    writeString(SESSION_KEYS.user, null);
    lastLogoutReason = reason;
    setState({ tokens: null, user: null });
  },

  /** Why the last session ended, without consuming it. */
  peekLogoutReason(): LogoutReason | null {
    return lastLogoutReason;
  },

  /** Returns, once, why the last session ended. */
  takeLogoutReason(): LogoutReason | null {
    const reason = lastLogoutReason;
    lastLogoutReason = null;
    return reason;
  },

  /** Age of the access token in seconds (Infinity when there is none). */
  tokenAgeSeconds(now = Date.now()): number {
    if (!state.tokens) return Number.POSITIVE_INFINITY;
    return (now - state.tokens.issuedAt) / 1000;
  },

  /** True when a logged-in session's access token is 20 minutes old or older. */
  needsRefresh(now = Date.now()): boolean {
    return state.tokens !== null && this.tokenAgeSeconds(now) >= TOKEN_REFRESH_AGE_SECONDS;
  },

  /** Re-reads localStorage (tests, and after another tab changed it). */
  reload(): void {
    setState(readState());
  },
};

/** A stable random id of this browser, generated once and kept in localStorage. */
export function getBrowserHash(): string {
  let hash = readString(SESSION_KEYS.browserHash);
  if (!hash) {
    hash =
      typeof crypto !== 'undefined' && 'randomUUID' in crypto
        ? crypto.randomUUID()
        : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    writeString(SESSION_KEYS.browserHash, hash);
  }
  return hash;
}
