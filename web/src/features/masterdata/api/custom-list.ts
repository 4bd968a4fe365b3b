import type { Row } from '../../../lib/table-definition';

/** The answer of the specification's GET lists (companies, contacts, areas, locations…). */
export interface CustomList {
  data: Row[];
  links: { pagination: { current_page: number; last_page: number; total: number } };
}
