/** A numbered schema change: statements run in order, once, recorded in `schema_migrations`. */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}
