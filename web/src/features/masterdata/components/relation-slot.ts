import type { ComponentType } from 'react';
import type { RelationDefinition, TableDefinition } from '../../../lib/table-definition';

/** The generic relation tabs the app plugs in below a custom page. */
export type RelationTabsSlot = ComponentType<{ table: string; id: string; def: TableDefinition; relations: RelationDefinition[] }>;
