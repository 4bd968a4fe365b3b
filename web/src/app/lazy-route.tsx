import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { importWithTimeout } from '../lib/lazy-import';
import type { TableRouteKind } from './guards/access';

type LazyResult = Awaited<ReturnType<NonNullable<Extract<RouteObject['lazy'], (...args: never[]) => unknown>>>>;

/** A route whose page is its own chunk (default export), loaded with the 120 s time-out. */
export function page(importer: () => Promise<{ default: ComponentType }>): { lazy: () => Promise<LazyResult> } {
  return {
    lazy: async () => {
      const module = await importWithTimeout(importer);
      return { Component: module.default };
    },
  };
}

const placeholderChunk = () => import('./pages/screen-placeholder-page');

/**
 * The route handle of a screen still to come (a placeholder page): the menu's
 * list of coming screens (menu.ts, COMING_SOON) is checked against it.
 */
export const COMING_SOON_HANDLE = { comingSoon: true } as const;

/** The honest placeholder of a screen built by a later release, named by a text key. */
export function namedScreen(screenKey: string): { lazy: () => Promise<LazyResult>; handle: typeof COMING_SOON_HANDLE } {
  return {
    handle: COMING_SOON_HANDLE,
    lazy: async () => {
      const { NamedPlaceholderPage } = await importWithTimeout(placeholderChunk);
      return { Component: () => <NamedPlaceholderPage screenKey={screenKey} /> };
    },
  };
}

/** The placeholder of a generic table screen, naming the table from the route. */
export function tableScreen(kind: TableRouteKind, table?: string): { lazy: () => Promise<LazyResult>; handle: typeof COMING_SOON_HANDLE } {
  return {
    handle: COMING_SOON_HANDLE,
    lazy: async () => {
      const { TablePlaceholderPage } = await importWithTimeout(placeholderChunk);
      return { Component: () => <TablePlaceholderPage kind={kind} table={table} /> };
    },
  };
}
