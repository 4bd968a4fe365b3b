import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Removes the temporary data directory of the test server. */
export default function globalTeardown(): void {
  const dir = process.env.PORTFOLIO_E2E_DATA_DIR;
  if (dir && dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
}
